package configresource

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
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

// madeBy reports whether rec may be the config a create of in made, as the
// service stores and shows what it was sent: an active config holding
// everything in sends. A name or description left out is checked by
// matchesFallback.
func madeBy(rec *client.Record, in client.RecordInput) bool {
	plugin, _ := in.Plugin.Get()
	enabled, _ := in.Enabled.Get() // left out: the service's false
	order, hasOrder := in.Order.Get()
	if rec.Deleted || rec.Plugin != plugin || rec.Enabled != enabled || hasOrder && rec.Order != order {
		return false
	}
	for _, f := range []struct {
		sent client.Opt[string]
		got  *string
	}{{in.Name, rec.Name}, {in.Description, rec.Description}} {
		// The service strips what it stores; a blank is checked by
		// matchesFallback, as the service shows the plugin's for it.
		if v, ok := f.sent.Get(); ok && !IsBlank(v) && (f.got == nil || *f.got != Stored(v)) {
			return false
		}
	}
	// A service without filters (every version since mid-August 2024)
	// drops those sent: nothing to match.
	if v, ok := in.Filters.Get(); ok && !rec.FiltersOmitted() {
		if python.IsNull(rec.Filters) || !FiltersEqual(string(v), string(rec.Filters)) {
			return false
		}
	} else if !ok && !python.IsNull(rec.Filters) {
		return false
	}
	if v, ok := in.Settings.Get(); ok {
		// Not an object (or null): nil. None at all may be a create whose
		// settings were to follow in a PATCH, cut off before it.
		stored, _ := ParseSettings(string(rec.Settings))
		if len(stored) > 0 && !HoldsSettings(stored, string(v), AsStored) {
			return false
		}
	}
	return true
}

// matchesFallback checks a name or description left out or sent blank:
// the service shows the plugin's own for it (when plugin_info tells it).
func matchesFallback(rec *client.Record, in client.RecordInput) bool {
	p := PluginOf(rec.PluginInfo)
	for _, f := range []struct {
		sent   client.Opt[string]
		got    *string
		plugin OwnText
	}{{in.Name, rec.Name, p.Name}, {in.Description, rec.Description, p.Description}} {
		if v, sent := f.sent.Get(); sent && !IsBlank(v) {
			continue // checked by madeBy
		}
		if isPlugins, told := f.plugin.Shows(f.got); told && !isPlugins {
			return false
		}
	}
	return true
}
