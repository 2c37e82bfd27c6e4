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

// encodeRecordInput returns the body and Content-Type of a create or update.
//
// Without Config it is a JSON object of the fields that are set (null for a
// Null() field). With Config set it is multipart/form-data, the only way the
// live service accepts config:
//
//   - config: the JSON object as text; Null() sends "{}", since the service
//     has no null config (and keeps omitted secret keys either way);
//   - plugin, order: decimal; enabled, deleted: "true" / "false";
//   - name, description: the text as is;
//   - filters: its JSON text;
//   - any other Null() field: an empty value.
//
// Fields left out are not sent in either form.
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

	cfg := "{}"
	if v, ok := in.Config.Get(); ok {
		cfg = jsonvalue.Compact(v)
	}
	field("config", cfg)
	formInt(field, "plugin", in.Plugin)
	formBool(field, "enabled", in.Enabled)
	formInt(field, "order", in.Order)
	formString(field, "name", in.Name)
	formString(field, "description", in.Description)
	formBool(field, "deleted", in.Deleted)
	if !in.Filters.IsZero() {
		v, _ := in.Filters.Get()
		field("filters", string(bytes.TrimSpace(v)))
	}
	if werr == nil {
		werr = w.Close()
	}
	if werr != nil {
		return nil, "", fmt.Errorf("encoding the form: %w", werr)
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

func formInt(field func(string, string), name string, o Opt[int64]) {
	if o.IsZero() {
		return
	}
	v, ok := o.Get()
	if !ok {
		field(name, "")
		return
	}
	field(name, strconv.FormatInt(v, 10))
}

func formBool(field func(string, string), name string, o Opt[bool]) {
	if o.IsZero() {
		return
	}
	v, ok := o.Get()
	if !ok {
		field(name, "")
		return
	}
	field(name, strconv.FormatBool(v))
}

func formString(field func(string, string), name string, o Opt[string]) {
	if !o.IsZero() {
		v, _ := o.Get() // "" for Null()
		field(name, v)
	}
}
