package localapi

import (
	"bytes"
	"encoding/json"
)

// A hog function's template is the one its template_id names in the
// service's template catalog (hogTemplates); its code and inputs_schema
// are stored with it when it is made, and a row stored without them (by
// an older local API) takes its template's.

// inputSchema is one entry of inputs_schema, what the local API reads of
// it.
type inputSchema struct {
	Key      string          `json:"key"`
	Type     string          `json:"type"`
	Required bool            `json:"required"`
	Secret   bool            `json:"secret"`
	Default  json.RawMessage `json:"default,omitempty"`
	// Templating is true, false, "hog" or "liquid", or nil.
	Templating json.RawMessage `json:"templating,omitempty"`
}

// template returns the template hf was made from, nil for a function of
// its own code or whose template the catalog does not have.
func (hf *HogFunction) template() *hogTemplate { return hogTemplates.get(hf.TemplateID) }

// hog is hf's code: its own, or its template's.
func (hf *HogFunction) hog() string {
	if hf.Hog != nil {
		return *hf.Hog
	}
	if t := hf.template(); t != nil {
		return t.Code
	}
	return ""
}

// schemaJSON is hf's inputs_schema: its own, or its template's.
func (hf *HogFunction) schemaJSON() json.RawMessage {
	if hf.InputsSchema != nil {
		return hf.InputsSchema
	}
	if t := hf.template(); t != nil {
		return t.InputsSchema
	}
	return json.RawMessage(`[]`)
}

// schemaItems is hf's inputs_schema, decoded.
func (hf *HogFunction) schemaItems() []inputSchema {
	var items []inputSchema
	if err := json.Unmarshal(hf.schemaJSON(), &items); err != nil {
		return nil // validated when it was stored
	}
	return items
}

// maskedInputs shows every secret input that is set as {"secret": true},
// as PostHog answers the inputs it keeps encrypted (to_representation: an
// input of a schema entry with secret true whose object is not empty), and
// leaves out a secret input that is not set (PostHog keeps secrets apart
// from the inputs it answers).
func (hf *HogFunction) maskedInputs() json.RawMessage {
	var inputs map[string]json.RawMessage
	if err := json.Unmarshal(hf.Inputs, &inputs); err != nil {
		return json.RawMessage(`{}`) // never show what might be a secret
	}
	masked := false
	for _, s := range hf.schemaItems() {
		in, ok := inputs[s.Key]
		switch {
		case !ok || !s.Secret:
		case nonEmptyObject(in):
			inputs[s.Key], masked = json.RawMessage(`{"secret":true}`), true
		default:
			delete(inputs, s.Key)
			masked = true
		}
	}
	if !masked {
		return hf.Inputs
	}
	return orderedAs(hf.Inputs, inputs)
}

// nonEmptyObject reports whether raw is a JSON object with members (what
// Python finds true of a dict).
func nonEmptyObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && len(m) > 0
}

// orderedAs writes the members of vals in the order of the object orig.
func orderedAs(orig json.RawMessage, vals map[string]json.RawMessage) json.RawMessage {
	keys := objectKeys(orig)
	obj := make(orderedObject, 0, len(keys))
	for _, k := range keys {
		if v, ok := vals[k]; ok {
			obj = append(obj, member{k, v})
		}
	}
	out, err := marshalJSON(obj)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return out
}

// objectKeys lists the member names of a JSON object in their order.
func objectKeys(raw json.RawMessage) []string {
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}
