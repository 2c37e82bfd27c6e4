package localapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// ConfigSchema is a plugin's config_schema as the service stores and serves
// it: a list of fields for current plugins
// (`[{"key": "apiKey", "type": "string", "secret": true}]`), or an object of
// fields by key for older ones (`{"apiKey": {"type": "string"}}`). The
// service finds secret keys only in the list form: with the object form it
// masks nothing and keeps no omitted secret. Build one with ListSchema or
// ObjectSchema.
type ConfigSchema struct {
	Fields []ConfigField
	// ObjectForm serves Fields as an object by key, in their order.
	ObjectForm bool
}

// ListSchema returns a config_schema in the list form.
func ListSchema(fields ...ConfigField) ConfigSchema { return ConfigSchema{Fields: fields} }

// ObjectSchema returns a config_schema in the older object form; the
// fields' Secret flags are served but mean nothing to the service.
func ObjectSchema(fields ...ConfigField) ConfigSchema {
	return ConfigSchema{Fields: fields, ObjectForm: true}
}

// secretKeys lists the keys the service treats as secret: those of list
// fields whose secret is true. The live check reads the list's entries
// only, so an object-form schema has none.
func (s ConfigSchema) secretKeys() []string {
	if s.ObjectForm {
		return nil
	}
	var keys []string
	for _, f := range s.Fields {
		if f.Secret {
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// MarshalJSON writes the schema in its form: a list ([] without fields),
// or an object whose members are the fields without their key.
func (s ConfigSchema) MarshalJSON() ([]byte, error) {
	if !s.ObjectForm {
		if s.Fields == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(s.Fields)
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range s.Fields {
		key, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		f.Key = "" // the member's name holds it
		val, err := json.Marshal(f)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(key)
		buf.WriteByte(':')
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads either form (null: a list without fields), keeping
// the object form's member order. Unknown field attributes are refused, so
// that a typo in a -plugins file does not go unnoticed.
func (s *ConfigSchema) UnmarshalJSON(data []byte) error {
	*s = ConfigSchema{}
	data = bytes.TrimSpace(data)
	switch {
	case string(data) == "null":
		return nil
	case len(data) > 0 && data[0] == '[':
		return strictDecode(data, &s.Fields)
	case len(data) == 0 || data[0] != '{':
		return fmt.Errorf("config_schema must be a list or an object, got %.20s", data)
	}
	s.ObjectForm = true
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string) // an object's member names are strings
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		var f ConfigField
		if err := strictDecode(raw, &f); err != nil {
			return fmt.Errorf("config_schema %q: %w", key, err)
		}
		if f.Key != "" && f.Key != key {
			return fmt.Errorf("config_schema %q: has key %q", key, f.Key)
		}
		f.Key = key
		s.Fields = append(s.Fields, f)
	}
	_, err := dec.Token() // }
	return err
}

// strictDecode decodes one JSON value into v, refusing unknown fields.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("extra data after the JSON value")
	}
	return nil
}
