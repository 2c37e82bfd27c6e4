package configresource

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// pluginFallback plans a name or description left out of the configuration
// as the service will show it: the plugin's own, read from plugin_info in
// state. So a value the service filled in is not fought over, and a value
// the user removes plans the change back to the plugin's (sent as null).
// Without the plugin's value in state, the prior value is kept.
func pluginFallback(field string) planmodifier.String {
	return pluginFallbackModifier{field: field}
}

type pluginFallbackModifier struct {
	field string
}

func (m pluginFallbackModifier) Description(context.Context) string {
	return fmt.Sprintf("When not configured, the plugin's %s, as the service shows it.", m.field)
}

func (m pluginFallbackModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (m pluginFallbackModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	// Only an update of a value left out of the configuration: on create the
	// plugin's value is not known yet, and a configured value is the plan.
	if !req.ConfigValue.IsNull() || req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var info jsontypes.Normalized
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("plugin_info"), &info)...)
	if v, ok := pluginInfoString(info, m.field); ok {
		resp.PlanValue = types.StringValue(v)
		return
	}
	resp.PlanValue = req.StateValue
}

// pluginInfoString returns a non-empty string field of plugin_info.
func pluginInfoString(info jsontypes.Normalized, field string) (string, bool) {
	if !framework.IsSet(info) {
		return "", false
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(info.ValueString()), &obj); err != nil {
		return "", false
	}
	s, ok := obj[field].(string)
	return s, ok && s != ""
}

// filtersPlan plans filters as configured, except that configured filters
// the service would store the same way as those in state keep the state's
// text: reformatting, or the service's normalisation read back by an import,
// is no change. Left out of the configuration, filters are planned null:
// filters set elsewhere are removed.
type filtersPlan struct{}

func (filtersPlan) Description(context.Context) string {
	return "Configured filters that the service would store the same way as the current ones are no change."
}

func (m filtersPlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (filtersPlan) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	switch {
	case req.ConfigValue.IsUnknown():
		return
	case req.ConfigValue.IsNull():
		resp.PlanValue = types.StringNull()
	case framework.IsSet(req.StateValue) && record.FiltersEqual(req.ConfigValue.ValueString(), req.StateValue.ValueString()):
		resp.PlanValue = req.StateValue
	default:
		resp.PlanValue = req.ConfigValue
	}
}
