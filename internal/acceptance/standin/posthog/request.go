package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// requestBody is the JSON body of a create or update: what m has, values
// that are null, unknown or empty left out.
func requestBody(m *model) (map[string]any, diag.Diagnostics) {
	body := map[string]any{}
	var diags diag.Diagnostics
	text := func(name string, v types.String) {
		if !v.IsNull() && !v.IsUnknown() {
			body[name] = v.ValueString()
		}
	}
	text("type", m.Type)
	text("name", m.Name)
	text("description", m.Description)
	text("hog", m.Hog)
	text("icon_url", m.IconURL)
	text("template_id", m.TemplateID)
	if !m.Enabled.IsNull() && !m.Enabled.IsUnknown() {
		body["enabled"] = m.Enabled.ValueBool()
	}
	if !m.ExecutionOrder.IsNull() && !m.ExecutionOrder.IsUnknown() {
		body["execution_order"] = m.ExecutionOrder.ValueInt64()
	}

	// inputs: inputs_json, with sensitive_inputs_json's members over it.
	var inputs, secrets map[string]any
	decodeAttr(&diags, "inputs_json", "an object", m.InputsJSON, &inputs)
	decodeAttr(&diags, "sensitive_inputs_json", "an object", m.SensitiveInputsJSON, &secrets)
	if inputs == nil {
		inputs = map[string]any{}
	}
	for k, v := range secrets {
		inputs[k] = v
	}
	if len(inputs) > 0 {
		body["inputs"] = inputs
	}
	var schema, mappings []map[string]any
	var filters, masking map[string]any
	decodeAttr(&diags, "inputs_schema_json", "an array of objects", m.InputsSchemaJSON, &schema)
	decodeAttr(&diags, "filters_json", "an object", m.FiltersJSON, &filters)
	decodeAttr(&diags, "masking_json", "an object", m.MaskingJSON, &masking)
	decodeAttr(&diags, "mappings_json", "an array of objects", m.MappingsJSON, &mappings)
	for name, v := range map[string]any{"inputs_schema": schema, "filters": filters, "masking": masking, "mappings": mappings} {
		if lengthOf(v) > 0 {
			body[name] = v
		}
	}
	return body, diags
}

// decodeAttr decodes the JSON attribute name into out unless it is null,
// unknown or blank; want says what it must hold.
func decodeAttr(diags *diag.Diagnostics, name, want string, v types.String, out any) {
	if v.IsNull() || v.IsUnknown() || strings.TrimSpace(v.ValueString()) == "" {
		return
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(v.ValueString())), out); err != nil {
		diags.AddAttributeError(pathOf(name), "Invalid "+name,
			fmt.Sprintf("%s must be JSON text of %s: %v. Fix the value in the configuration.", name, want, err))
	}
}

// lengthOf is the number of members or items of a decoded object or array.
func lengthOf(v any) int {
	switch x := v.(type) {
	case map[string]any:
		return len(x)
	case []map[string]any:
		return len(x)
	}
	return 0
}
