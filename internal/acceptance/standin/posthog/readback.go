package main

import (
	"encoding/json"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// answer is a hog function as the service answers it, in the types the
// official provider decodes it into (an answer that does not fit them is
// an error there too).
type answer struct {
	ID             string           `json:"id"`
	Type           *string          `json:"type"`
	Name           *string          `json:"name"`
	Description    *string          `json:"description"`
	Enabled        *bool            `json:"enabled"`
	Hog            *string          `json:"hog"`
	InputsSchema   []map[string]any `json:"inputs_schema"`
	Inputs         map[string]any   `json:"inputs"`
	Filters        map[string]any   `json:"filters"`
	Masking        map[string]any   `json:"masking"`
	Mappings       []map[string]any `json:"mappings"`
	IconURL        *string          `json:"icon_url"`
	ExecutionOrder *int             `json:"execution_order"`
	CreatedAt      *string          `json:"created_at"`
	UpdatedAt      *string          `json:"updated_at"`
	CreatedBy      map[string]any   `json:"created_by"`
	Template       *struct {
		ID          string  `json:"id"`
		Name        string  `json:"name"`
		Description *string `json:"description"`
		Type        string  `json:"type"`
		Status      *string `json:"status"`
		IconURL     *string `json:"icon_url"`
	} `json:"template"`
	Status *struct {
		State  int `json:"state"`
		Tokens int `json:"tokens"`
	} `json:"status"`
}

// readBack puts the answer a into m, whose JSON attributes hold what the
// configuration (or the state) has, as the official provider does.
func readBack(a *answer, m *model) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(a.ID)
	m.Type = types.StringNull()
	if a.Type != nil && *a.Type != "" {
		m.Type = types.StringValue(*a.Type)
	}
	m.Name, m.Description, m.IconURL = unlessBlank(a.Name), unlessBlank(a.Description), unlessBlank(a.IconURL)
	m.Enabled = types.BoolPointerValue(a.Enabled)
	m.Hog = hogOf(a.Hog, m.Hog)
	if m.TemplateID.IsNull() { // write-only: the answer has the template itself
		m.TemplateID = types.StringNull()
		if a.Template != nil && a.Template.ID != "" {
			m.TemplateID = types.StringValue(a.Template.ID)
		}
	}
	m.ExecutionOrder = types.Int64Null()
	if a.ExecutionOrder != nil {
		m.ExecutionOrder = types.Int64Value(int64(*a.ExecutionOrder))
	}

	// Inputs: only the configured keys, or every input when neither
	// attribute is set (an import). Secrets are never read back: the
	// service masks them.
	switch {
	case len(a.Inputs) == 0:
		m.InputsJSON = emptyUnlessNull(m.InputsJSON, "{}")
		m.SensitiveInputsJSON = emptyUnlessNull(m.SensitiveInputsJSON, "{}")
	case !m.InputsJSON.IsNull():
		m.InputsJSON = shaped(a.Inputs, m.InputsJSON.ValueString())
	case m.SensitiveInputsJSON.IsNull():
		m.InputsJSON = shaped(a.Inputs, "")
	}

	// inputs_schema: the configured entries, matched by key, only when
	// configured.
	switch {
	case len(a.InputsSchema) == 0:
		m.InputsSchemaJSON = emptyUnlessNull(m.InputsSchemaJSON, "[]")
	case !m.InputsSchemaJSON.IsNull():
		schema, d := configuredSchema(a.InputsSchema, m.InputsSchemaJSON.ValueString())
		diags.Append(d...)
		m.InputsSchemaJSON = schema
	}

	// filters and masking: the service's, even when not configured.
	m.FiltersJSON = answered(a.Filters, m.FiltersJSON, "{}")
	m.MaskingJSON = answered(a.Masking, m.MaskingJSON, "{}")
	// mappings: the service's whole, server fields and all: the official
	// provider's shaping passes a list of objects through untouched.
	if len(a.Mappings) > 0 {
		m.MappingsJSON = marshalled(a.Mappings)
	} else {
		m.MappingsJSON = emptyUnlessNull(m.MappingsJSON, "[]")
	}
	return diags
}

// unlessBlank is s, or null when s is nil or only white space.
func unlessBlank(s *string) types.String {
	if s == nil || strings.TrimSpace(*s) == "" {
		return types.StringNull()
	}
	return types.StringValue(*s)
}

// hogOf is the function's code: the service's without trailing white
// space (which the service strips), or mine where it differs from the
// service's only by that.
func hogOf(theirs *string, mine types.String) types.String {
	trim := func(s string) string { return strings.TrimRight(s, " \t\r\n") }
	served := ""
	if theirs != nil {
		served = trim(*theirs)
	}
	if !mine.IsNull() && !mine.IsUnknown() && trim(mine.ValueString()) == served {
		return mine
	}
	if served == "" {
		return types.StringNull()
	}
	return types.StringValue(served)
}

// emptyUnlessNull is empty where v is set, and null where it is null.
func emptyUnlessNull(v types.String, empty string) types.String {
	if v.IsNull() {
		return v
	}
	return types.StringValue(empty)
}

// answered is the service's value of an object attribute, shaped as
// configured; empty or null as configured when the service has none.
func answered(theirs map[string]any, mine types.String, empty string) types.String {
	if len(theirs) == 0 {
		return emptyUnlessNull(mine, empty)
	}
	return shaped(theirs, mine.ValueString())
}

// serverFields are members the service adds to the JSON values it answers
// (compiled bytecode, an input's order), dropped at any depth.
var serverFields = map[string]bool{"bytecode": true, "order": true}

// withoutServerFields is v without serverFields in its objects.
func withoutServerFields(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if !serverFields[k] {
				out[k] = withoutServerFields(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutServerFields(e)
		}
		return out
	}
	return v
}

// shaped is the service's value theirs as state keeps it: its server fields
// dropped, cut to the shape of the configured JSON text mine (all of it
// when mine is blank or not JSON), written by json.Marshal.
func shaped(theirs any, mine string) types.String {
	theirs = withoutServerFields(theirs)
	var configured any
	if strings.TrimSpace(mine) != "" && json.Unmarshal([]byte(strings.TrimSpace(mine)), &configured) == nil {
		theirs = cutTo(configured, theirs)
	}
	return marshalled(theirs)
}

// cutTo is what of theirs mine names: of an object, the members mine has
// (cut in turn); of an array, every item of theirs, those mine has a
// counterpart of cut to it. Anything else, and a value of another kind
// than mine's, is theirs as it is, so that a difference shows.
func cutTo(mine, theirs any) any {
	switch m := mine.(type) {
	case map[string]any:
		t, ok := theirs.(map[string]any)
		if !ok {
			return theirs
		}
		out := map[string]any{}
		for k, mv := range m {
			if tv, ok := t[k]; ok {
				out[k] = cutTo(mv, tv)
			}
		}
		return out
	case []any:
		t, ok := theirs.([]any)
		if !ok {
			return theirs
		}
		out := make([]any, len(t))
		for i, tv := range t {
			if i < len(m) {
				tv = cutTo(m[i], tv)
			}
			out[i] = tv
		}
		return out
	}
	return theirs
}

// configuredSchema is the service's inputs_schema as state keeps it: the
// entries whose key the configured entries name, in their order, each cut
// to its configured entry.
func configuredSchema(theirs []map[string]any, mine string) (types.String, diag.Diagnostics) {
	var diags diag.Diagnostics
	var entries []map[string]any
	if err := json.Unmarshal([]byte(mine), &entries); err != nil {
		diags.AddAttributeError(pathOf("inputs_schema_json"), "Invalid inputs_schema_json in state",
			"inputs_schema_json must be JSON text of an array of objects: "+err.Error())
		return types.StringValue(mine), diags
	}
	byKey := map[string]map[string]any{}
	for _, e := range theirs {
		if k, ok := e["key"].(string); ok {
			byKey[k] = e
		}
	}
	kept, configured := []any{}, []any{}
	for _, e := range entries {
		k, ok := e["key"].(string)
		if served, found := byKey[k]; ok && found {
			kept, configured = append(kept, served), append(configured, e)
		}
	}
	return shaped(kept, marshalled(configured).ValueString()), diags
}

// marshalled is v as json.Marshal writes it.
func marshalled(v any) types.String {
	raw, err := json.Marshal(v)
	if err != nil { // decoded JSON always encodes
		panic(err)
	}
	return types.StringValue(string(raw))
}
