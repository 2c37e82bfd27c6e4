package configresource

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// createInput is the body of the POST: plugin and order (0 when left out),
// which the service requires, and what else is configured.
func createInput(m *RecordModel, secret types.String) (client.RecordInput, error) {
	in := client.RecordInput{
		Plugin: client.Some(m.Plugin.ValueInt64()),
		Order:  client.Some(m.Order.ValueInt64()), // 0 when null or unknown
	}
	if framework.IsSet(m.Enabled) {
		in.Enabled = client.Some(m.Enabled.ValueBool())
	}
	if framework.IsSet(m.Name) {
		in.Name = client.Some(m.Name.ValueString())
	}
	if framework.IsSet(m.Description) {
		in.Description = client.Some(m.Description.ValueString())
	}
	if framework.IsSet(m.Filters) {
		in.Filters = client.Some(json.RawMessage(m.Filters.ValueString()))
	}
	if framework.IsSet(m.Settings) || framework.IsSet(secret) {
		cfg, err := SettingsInput(m.Settings, secret)
		if err != nil {
			return in, err
		}
		in.Settings = client.Some(cfg)
	}
	return in, nil
}

// updateInput is the body of the PATCH: only what the plan changes (a new
// plugin is a replacement), and whether there is anything to send.
func updateInput(plan, state, config *RecordModel) (client.RecordInput, bool) {
	var in client.RecordInput
	changed := false
	if framework.IsSet(plan.Enabled) && !plan.Enabled.Equal(state.Enabled) {
		in.Enabled, changed = client.Some(plan.Enabled.ValueBool()), true
	}
	if framework.IsSet(plan.Order) && !plan.Order.Equal(state.Order) {
		in.Order, changed = client.Some(plan.Order.ValueInt64()), true
	}
	if textChanged(plan.Name, state.Name) {
		in.Name, changed = optionalString(config.Name, plan.Name), true
	}
	if textChanged(plan.Description, state.Description) {
		in.Description, changed = optionalString(config.Description, plan.Description), true
	}
	if in.Filters = filtersUpdate(plan.Filters, state.Filters); !in.Filters.IsZero() {
		changed = true
	}
	return in, changed
}
