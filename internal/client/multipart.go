package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"strconv"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// encodeRecordInput returns the body and Content-Type of a create or update
// (see RecordInput).
func encodeRecordInput(in RecordInput) ([]byte, string, error) {
	if err := validateInput(in); err != nil {
		return nil, "", err
	}
	if in.Config.IsZero() {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, "", fmt.Errorf("encoding the request: %w", err)
		}
		return b, contentTypeJSON, nil
	}
	return encodeMultipart(in)
}

func validateInput(in RecordInput) error {
	if in.Filters.IsNull() {
		return errors.New("filters cannot be null: the service refuses it; {} clears filters")
	}
	if v, ok := in.Filters.Get(); ok && !json.Valid(v) {
		return errors.New("filters is not valid JSON")
	}
	if v, ok := in.Config.Get(); ok {
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) != nil || obj == nil {
			return errors.New("config is not a JSON object")
		}
	}
	return nil
}

func encodeMultipart(in RecordInput) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	var werr error
	field := func(name, value string) {
		if werr == nil {
			werr = w.WriteField(name, value)
		}
	}
	cfg := "{}" // the service has no null config
	if v, ok := in.Config.Get(); ok {
		cfg = jsonvalue.Compact(v)
	}
	field("config", cfg)
	formInt := func(v int64) string { return strconv.FormatInt(v, 10) }
	formText := func(s string) string { return s }
	formField(field, "plugin", in.Plugin, formInt)
	formField(field, "enabled", in.Enabled, strconv.FormatBool)
	formField(field, "order", in.Order, formInt)
	formField(field, "name", in.Name, formText)
	formField(field, "description", in.Description, formText)
	formField(field, "deleted", in.Deleted, strconv.FormatBool)
	formField(field, "filters", in.Filters, func(v json.RawMessage) string { return string(bytes.TrimSpace(v)) })
	if werr == nil {
		werr = w.Close()
	}
	if werr != nil {
		return nil, "", fmt.Errorf("encoding the form: %w", werr)
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// formField writes a field that is set as text, a Null() one as an empty
// value.
func formField[T any](field func(string, string), name string, o Opt[T], text func(T) string) {
	if o.IsZero() {
		return
	}
	v, ok := o.Get()
	if !ok {
		field(name, "")
		return
	}
	field(name, text(v))
}
