package configresource

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// settingsUpdate returns the PATCH's config field, if any: the planned
// settings, and the secrets when secret_config_wo_version changes (the
// service keeps secrets left out, so they are sent as "", which clears them).
func (r *configResource) settingsUpdate(ctx context.Context, c *client.Client, project string, id int64,
	plan, state, config *Model, facts pluginFacts,
) (client.Opt[json.RawMessage], error) {
	resend := framework.IsSet(config.SecretSettings) && !plan.SecretSettingsVersion.Equal(state.SecretSettingsVersion)
	changed := framework.IsSet(plan.Settings) && !plan.Settings.Equal(state.Settings)
	if !changed && !resend {
		return client.Opt[json.RawMessage]{}, nil
	}
	plain, secret := plan.Settings, types.StringNull()
	if resend {
		secrets, known := facts.secretKeys()
		if config.Settings.IsNull() || !known {
			// Send the settings the service holds; the answer tells the secret keys.
			rec, err := c.Get(ctx, project, r.kind.Collection, id)
			if err != nil {
				return client.Opt[json.RawMessage]{}, err
			}
			secrets, _ = pluginFactsOf(rec, facts, false).secretKeys()
			if config.Settings.IsNull() {
				plain = SettingsFromAPI(rec.Settings, secrets, jsontypes.NewNormalizedNull())
			}
		}
		cleared, err := ClearingSecrets(config.SecretSettings.ValueString(), secrets)
		if err != nil {
			return client.Opt[json.RawMessage]{}, err
		}
		secret = types.StringValue(cleared)
	}
	cfg, err := SettingsInput(plain, secret)
	if err != nil {
		return client.Opt[json.RawMessage]{}, err
	}
	return client.Some(cfg), nil
}

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
	if f, ok := filtersUpdate(plan.Filters, state.Filters); ok {
		in.Filters, changed = f, true
	}
	return in, changed
}

// filtersUpdate is the filters to send, if any: {} for filters removed (the
// service refuses null).
func filtersUpdate(plan, state FiltersValue) (client.Opt[json.RawMessage], bool) {
	switch {
	case plan.FiltersNothing() && state.FiltersNothing():
		return client.Opt[json.RawMessage]{}, false
	case plan.IsNull():
		return client.Some(json.RawMessage("{}")), true
	case state.IsNull() || !FiltersEqual(plan.ValueString(), state.ValueString()):
		return client.Some(json.RawMessage(plan.ValueString())), true
	}
	return client.Opt[json.RawMessage]{}, false
}

// textChanged reports whether a planned name or description is a change for
// the service: a blank where the state is null is not (it shows as null).
func textChanged(plan, state types.String) bool {
	return !plan.Equal(state) && (!state.IsNull() || !isBlank(plan))
}

// optionalString is null when the text is left out: the service fills it in.
func optionalString(configured, planned types.String) client.Opt[string] {
	if configured.IsNull() || !framework.IsSet(planned) {
		return client.Null[string]()
	}
	return client.Some(planned.ValueString())
}
