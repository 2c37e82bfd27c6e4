package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// encodeRecordInput returns the body and Content-Type of a create or update
// (see RecordInput).
func encodeRecordInput(in RecordInput) ([]byte, string, error) {
	if in.Filters.set && in.Filters.null {
		return nil, "", errors.New("filters cannot be null: the service refuses it; {} clears filters")
	}
	if v, ok := in.Filters.Get(); ok && !json.Valid(v) {
		return nil, "", errors.New("filters is not valid JSON")
	}
	if v, ok := in.Settings.Get(); ok {
		if _, isObject := python.Object(string(v)); !isObject {
			return nil, "", errors.New("config is not a JSON object")
		}
	}
	if in.Settings.IsZero() {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, "", fmt.Errorf("encoding the request: %w", err)
		}
		return b, contentTypeJSON, nil
	}
	return encodeMultipart(in)
}

func encodeMultipart(in RecordInput) ([]byte, string, error) {
	cfg := "{}" // the service has no null config
	if v, ok := in.Settings.Get(); ok {
		cfg = python.Compact(v)
	}
	filters := Opt[string]{set: in.Filters.set, null: in.Filters.null, value: string(bytes.TrimSpace(in.Filters.value))}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	err := w.WriteField("config", cfg)
	for _, f := range []struct {
		name string
		opt  interface{ formValue() (string, bool) }
	}{
		{"plugin", in.Plugin}, {"enabled", in.Enabled}, {"order", in.Order}, {"name", in.Name},
		{"description", in.Description}, {"deleted", in.Deleted}, {"filters", filters},
	} {
		if v, set := f.opt.formValue(); set && err == nil {
			err = w.WriteField(f.name, v)
		}
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return nil, "", fmt.Errorf("encoding the form: %w", err)
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// formValue is a field's text in a form, "" for null, and whether it is sent.
func (o Opt[T]) formValue() (string, bool) {
	if v, ok := o.Get(); ok {
		return fmt.Sprint(v), true
	}
	return "", o.set
}
