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
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// recordModel holds the attributes of one pipeline config record. Every
// construct that shows a record (the resource, and later the data sources
// and the list resource) embeds it and fills it with fromRecord.
type recordModel struct {
	ID              types.Int64          `tfsdk:"id"`
	ProjectID       types.String         `tfsdk:"project_id"`
	Plugin          types.Int64          `tfsdk:"plugin"`
	Enabled         types.Bool           `tfsdk:"enabled"`
	Order           types.Int64          `tfsdk:"order"`
	Name            types.String         `tfsdk:"name"`
	Description     types.String         `tfsdk:"description"`
	Filters         FiltersValue         `tfsdk:"filters"`
	Deleted         types.Bool           `tfsdk:"deleted"`
	Config          jsontypes.Normalized `tfsdk:"config"`
	Error           jsontypes.Normalized `tfsdk:"error"`
	PluginInfo      jsontypes.Normalized `tfsdk:"plugin_info"`
	DeliveryRate24h jsontypes.Normalized `tfsdk:"delivery_rate_24h"`
	TeamID          types.Int64          `tfsdk:"team_id"`
	CreatedAt       types.String         `tfsdk:"created_at"`
	UpdatedAt       types.String         `tfsdk:"updated_at"`
}

// recordResourceModel is the record resource's model: a record, the secret
// settings (write-only: null except in the configuration) with their
// version, and the resource's timeouts.
type recordResourceModel struct {
	recordModel
	SecretConfig        types.String   `tfsdk:"secret_config_wo"`
	SecretConfigVersion types.Int64    `tfsdk:"secret_config_wo_version"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`
}

// recordIdentityModel is the record resource's identity (Terraform 1.12+).
type recordIdentityModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	ID        types.Int64  `tfsdk:"id"`
}

// fromRecord sets every attribute the service returns from rec: the one
// mapping from the API to Terraform, shared by create, read, update and
// import. project_id is not part of a record and stays as it is.
func (m *recordModel) fromRecord(rec *client.Record) {
	m.ID = types.Int64Value(rec.ID)
	m.Plugin = types.Int64Value(rec.Plugin)
	m.Enabled = types.BoolValue(rec.Enabled)
	m.Order = types.Int64Value(rec.Order)
	m.Name = types.StringPointerValue(rec.Name)
	m.Description = types.StringPointerValue(rec.Description)
	m.Filters = filtersFromAPI(rec.Filters)
	m.Deleted = types.BoolValue(rec.Deleted)
	m.Error = jsonValue(rec.Error)
	// A service that sends no plugin_info: keep what an earlier answer
	// showed rather than forget it.
	if info := jsonValue(rec.PluginInfo); !info.IsNull() || m.PluginInfo.IsUnknown() {
		m.PluginInfo = info
	}
	// Only the non-secret settings, and the prior value (the configured
	// one) while the service agrees with it.
	secrets, _ := secretKeysOf(m.PluginInfo)
	m.Config = configFromAPI(rec.Config, secrets, m.Config)
	m.DeliveryRate24h = jsonValue(rec.DeliveryRate24h)
	m.TeamID = types.Int64Value(rec.TeamID)
	m.CreatedAt = timestamp(rec.CreatedAt)
	m.UpdatedAt = timestamp(rec.UpdatedAt)
}

// filtersFromAPI renders the service's filters as compact JSON text; absent
// or null filters are null.
func filtersFromAPI(raw json.RawMessage) FiltersValue {
	if jsonvalue.IsNull(raw) {
		return NewFiltersNull()
	}
	return NewFiltersValue(jsonvalue.Compact(raw))
}

// timestamp maps an absent time to null.
func timestamp(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// createInput is the body of the POST. The service requires plugin and
// order: order is 0 when the configuration leaves it to the service (or to an
// ordering resource). Other fields are sent only when configured, so the
// service applies its defaults (name and description fall back to the
// plugin's).
func (m *recordModel) createInput() client.RecordInput {
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
func updateInput(plan, state, config *recordModel) (client.RecordInput, bool) {
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
		(framework.IsSet(plan.Filters) && !FiltersEqual(plan.Filters.ValueString(), state.Filters.ValueString())) {
		if plan.Filters.IsNull() {
			in.Filters = client.Null[json.RawMessage]()
		} else {
			in.Filters = client.Some(json.RawMessage(plan.Filters.ValueString()))
		}
		changed = true
	}
	return in, changed
}

// sameSettings reports whether m and other agree on everything a
// configuration sets.
func (m *recordModel) sameSettings(other *recordModel) bool {
	return m.ProjectID.Equal(other.ProjectID) && m.Plugin.Equal(other.Plugin) &&
		m.Enabled.Equal(other.Enabled) && m.Order.Equal(other.Order) &&
		m.Name.Equal(other.Name) && m.Description.Equal(other.Description) &&
		m.Filters.Equal(other.Filters) && m.Config.Equal(other.Config)
}

// markVolatileUnknown marks unknown the values a write may change without
// being asked to.
func (m *recordModel) markVolatileUnknown() {
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

// setIdentity stores the record's identity when Terraform supports it.
func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, m *recordModel) diag.Diagnostics {
	return framework.StoreIdentity(ctx, identity, recordIdentityModel{ProjectID: m.ProjectID, ID: m.ID})
}
