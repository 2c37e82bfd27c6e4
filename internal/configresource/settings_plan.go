package configresource

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
)

// settingsPlan plans the plugin settings (the `config` attribute).
// Configured, they are planned as written, except that the same settings
// written differently keep the state's text. Left out of the configuration,
// the settings are not managed: the state's value is kept (a new config
// gets the service's).
//
// State holds the configured object after an apply (the service's extra
// keys are not taken in, see record.SettingsFromAPI) and the service's
// non-secret settings after an import or a change made elsewhere: then
// every key the configuration does not set is planned for removal, as the
// service keeps only what `config` sends.
type settingsPlan struct{}

func (settingsPlan) Description(context.Context) string {
	return "The configured settings; left out, the current settings are kept."
}

func (m settingsPlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (settingsPlan) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	switch {
	case req.ConfigValue.IsUnknown() || req.State.Raw.IsNull() || req.Plan.Raw.IsNull():
		return
	case req.ConfigValue.IsNull():
		resp.PlanValue = req.StateValue
	case framework.IsSet(req.StateValue) &&
		jsonvalue.Equal(json.RawMessage(req.ConfigValue.ValueString()), json.RawMessage(req.StateValue.ValueString())):
		resp.PlanValue = req.StateValue
	}
}
