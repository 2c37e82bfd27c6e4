package collection

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// Model is the config resource's model: a record, the secret settings
// (write-only: null except in the configuration) with their version, and
// the resource's timeouts.
type Model struct {
	record.Model
	SecretConfig        types.String   `tfsdk:"secret_config_wo"`
	SecretConfigVersion types.Int64    `tfsdk:"secret_config_wo_version"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`
}

// identityModel is the config resource's identity (Terraform 1.12+).
type identityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	ID        types.Int64  `tfsdk:"id"`
}

// createInput is the body of the POST. The service requires plugin and
// order: order is 0 when the configuration leaves it to the service (or to an
// ordering resource). Other fields are sent only when configured, so the
// service applies its defaults (name and description fall back to the
// plugin's).
func createInput(m *record.Model) client.RecordInput {
	in := client.RecordInput{
		Plugin: client.Some(m.Plugin.ValueInt64()),
		Order:  client.Some(int64(0)),
	}
	if framework.IsSet(m.Order) {
		in.Order = client.Some(m.Order.ValueInt64())
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
	// config joins in createRequest, with the write-only secrets.
	return in
}

// updateInput is the body of the PATCH: only what the plan changes, and
// whether there is anything to send. plugin is absent because it forces
// replacement (the service ignores it on PATCH). A name, description or
// filters removed from the configuration is sent as null, so the service
// falls back to the plugin's name and description, or drops the filters.
func updateInput(plan, state, config *record.Model) (client.RecordInput, bool) {
	var in client.RecordInput
	changed := false
	if framework.IsSet(plan.Enabled) && !plan.Enabled.Equal(state.Enabled) {
		in.Enabled, changed = client.Some(plan.Enabled.ValueBool()), true
	}
	if framework.IsSet(plan.Order) && !plan.Order.Equal(state.Order) {
		in.Order, changed = client.Some(plan.Order.ValueInt64()), true
	}
	if !plan.Name.Equal(state.Name) {
		in.Name, changed = optionalString(config.Name, plan.Name), true
	}
	if !plan.Description.Equal(state.Description) {
		in.Description, changed = optionalString(config.Description, plan.Description), true
	}
	if plan.Filters.IsNull() != state.Filters.IsNull() ||
		(framework.IsSet(plan.Filters) && !record.FiltersEqual(plan.Filters.ValueString(), state.Filters.ValueString())) {
		if plan.Filters.IsNull() {
			in.Filters = client.Null[json.RawMessage]()
		} else {
			in.Filters = client.Some(json.RawMessage(plan.Filters.ValueString()))
		}
		changed = true
	}
	return in, changed
}

// sameArguments reports whether a and b agree on every argument a
// configuration sets.
func sameArguments(a, b *record.Model) bool {
	return a.ProjectID.Equal(b.ProjectID) && a.Plugin.Equal(b.Plugin) &&
		a.Enabled.Equal(b.Enabled) && a.Order.Equal(b.Order) &&
		a.Name.Equal(b.Name) && a.Description.Equal(b.Description) &&
		a.Filters.Equal(b.Filters) && a.Config.Equal(b.Config)
}

// markVolatileUnknown marks unknown the values a write may change without
// being asked to.
func markVolatileUnknown(m *record.Model) {
	m.UpdatedAt = types.StringUnknown()
	m.Error = jsontypes.NewNormalizedUnknown()
	m.DeliveryRate24h = jsontypes.NewNormalizedUnknown()
}

// optionalString is the value to send for an optional+computed string: null
// when the configuration leaves it out (the service then fills it in),
// otherwise the planned value.
func optionalString(configured, planned types.String) client.Opt[string] {
	if configured.IsNull() || !framework.IsSet(planned) {
		return client.Null[string]()
	}
	return client.Some(planned.ValueString())
}

// SetIdentity stores the identity of the record m when Terraform supports
// identities.
func SetIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, m *record.Model) diag.Diagnostics {
	return framework.StoreIdentity(ctx, identity, identityModel{ProjectID: m.ProjectID, ID: m.ID})
}
