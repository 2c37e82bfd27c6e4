package configresource

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/createonce"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/jsonvalue"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// Paths of the arguments whose change replaces the config.
var (
	pluginPath  = path.Root("plugin")
	filtersPath = path.Root("filters")
)

// ModifyPlan implements resource.ResourceWithModifyPlan: the whole plan of
// a config in one step, instead of a plan modifier per attribute (the
// framework walks every attribute for each of those, on every plan of every
// config). project_id defaults to the provider's; a plan that changes
// nothing keeps the state as it is, which is every config of a plan without
// changes.
func (r *configResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	framework.PlanProjectID(ctx, r.Meta(), framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: "id"}, req, resp)
	createonce.ConfirmInState(ctx, r.Meta(), req.State)
	r.planDroppedFilters(ctx, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() {
		return
	}
	cfg := configuredOf(req.Config.Raw)
	if req.State.Raw.IsNull() {
		// A create: the service fills in what the configuration leaves out
		// (name, description, order, settings), but filters left out are none.
		if cfg.filters.IsNull() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, filtersPath, record.NewFiltersNull())...)
		}
		r.refuseCreateIfNotStored(ctx, req, resp)
		r.planCreateSettings(ctx, resp, &cfg)
		return
	}
	if r.refuseUnread(ctx, req.State.Raw, req.Private, &resp.Diagnostics) {
		return
	}
	facts, known := readPluginFacts(ctx, req.Private)
	if resp.Plan.Raw.Equal(req.State.Raw) && !cfg.needsPlanning(framework.RawAttributes(req.State.Raw), facts, known) {
		// The plan is the state and nothing left out of the configuration
		// moves: nothing to decide, and no model conversion.
		return
	}

	var plan, state Model
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// New settings, a new plugin, or no facts: the plugin's schema tells,
	// when the key may read it; else the facts of the last answer do.
	secrets, ok := facts.secretKeys()
	told := (!ok || !plan.Plugin.Equal(state.Plugin) || !sameJSON(cfg.settings, state.Settings)) &&
		r.checkAgainstPlugin(ctx, r.Meta(), plan.Plugin.ValueInt64(), &cfg, &resp.Diagnostics)
	if !told && ok && plan.Plugin.Equal(state.Plugin) {
		resp.Diagnostics.Append(checkSettingKeys(plan.Plugin.ValueInt64(), secrets, cfg.settings, cfg.secret, "")...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	planUpdate(&plan.Config, &state.Config, &cfg, facts, known)
	if !plan.Plugin.Equal(state.Plugin) {
		resp.RequiresReplace = append(resp.RequiresReplace, pluginPath)
	}
	// Another project is a replacement, which PlanProjectID asked for.
	resends := !cfg.secret.IsNull() && !plan.SecretSettingsVersion.Equal(state.SecretSettingsVersion)
	if sameArguments(&plan.Config, &state.Config) && !resends {
		// Nothing for the service (at most timeouts, the version of absent
		// secrets, project_id written the other way, or filters that
		// filter nothing written another way change): Update sends
		// nothing, so the state's computed values stay and the plan has no
		// unknowns.
		state.Timeouts, state.SecretSettingsVersion = plan.Timeouts, plan.SecretSettingsVersion
		state.ProjectID, state.Filters = plan.ProjectID, plan.Filters
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &state)...)
		return
	}
	// An update: the service sets updated_at on every write.
	plan.UpdatedAt = types.StringUnknown()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planCreateSettings checks a create's settings against its plugin's
// schema, when the key may read it.
func (r *configResource) planCreateSettings(ctx context.Context, resp *resource.ModifyPlanResponse, cfg *configured) {
	var plugin types.Int64
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, pluginPath, &plugin)...)
	if resp.Diagnostics.HasError() || !framework.IsSet(plugin) || r.Meta() == nil {
		return
	}
	r.checkAgainstPlugin(ctx, r.Meta(), plugin.ValueInt64(), cfg, &resp.Diagnostics)
}

// sameJSON reports whether configured settings are the state's, written
// any way (unknown or unset configured settings are no change).
func sameJSON(configured types.String, state jsontypes.Normalized) bool {
	if !framework.IsSet(configured) {
		return true
	}
	return framework.IsSet(state) &&
		jsonvalue.Equal(json.RawMessage(configured.ValueString()), json.RawMessage(state.ValueString()))
}

// planUpdate plans an update of the config in state to what cfg
// configures. The framework proposes the configured values, the state's for
// the computed ones left out of the configuration, and unknown for those
// once anything changes; this keeps what stays and decides the rest:
//
//   - id and created_at never change; order left out is the service's (or
//     an order resource's) and stays.
//   - A name or description left out is the plugin's, as the service shows
//     it: one that is the plugin's already stays (even when the plugin
//     renamed itself: a read shows the new one), one the configuration no
//     longer sets becomes the plugin's, known after apply (it is sent as
//     null). Without plugin facts (a state older than them, before its
//     first read) the state's value stays.
//   - A name or description configured is planned as written, except that
//     the state's value stays where the service shows the same for both
//     (planText): the service strips text, and shows the plugin's for a
//     blank one.
//   - Filters are planned as configured, but configured filters the service
//     would store the same way keep the state's text. Left out, they are
//     null, so that filters set elsewhere are removed, unless the state's
//     filter nothing already (null, or the {} a cleared config reads back).
//   - Settings left out are not managed and stay; configured settings that
//     are the same JSON keep the state's text.
func planUpdate(plan, state *record.Config, cfg *configured, facts pluginFacts, known bool) {
	plan.ID, plan.CreatedAt = state.ID, state.CreatedAt
	if plan.ProjectID.IsUnknown() && !cfg.projectIDUnknown {
		plan.ProjectID = state.ProjectID
	}
	if cfg.orderNull {
		plan.Order = state.Order
	}
	switch {
	case cfg.nameNull:
		plan.Name = fromPlugin(state.Name, facts.NameFromPlugin && !facts.BlankName, known)
	case !cfg.name.IsUnknown():
		plan.Name = planText(cfg.name, state.Name, known && facts.NameFromPlugin)
	}
	switch {
	case cfg.descriptionNull:
		plan.Description = fromPlugin(state.Description, facts.DescriptionFromPlugin && !facts.BlankDescription, known)
	case !cfg.description.IsUnknown():
		plan.Description = planText(cfg.description, state.Description, known && facts.DescriptionFromPlugin)
	}
	plan.Filters = planFilters(cfg.filters, plan.Filters, state.Filters)
	plan.Settings = planSettings(cfg.settings, plan.Settings, state.Settings)
}

// fromPlugin plans a name or description left out of the configuration:
// the state's when it is the plugin's (or nothing tells), else the plugin's,
// which the service shows once the update sends null. A blank the state
// keeps for the plugin's text is not the plugin's.
func fromPlugin(state types.String, isPlugins, known bool) types.String {
	if !known || isPlugins || state.IsNull() {
		return state
	}
	return types.StringUnknown()
}

// planText plans a configured name or description: as configured, except
// that the state's value stays when the service shows the same for both
// (Terraform accepts a planned value equal to the prior one for a
// configured attribute): the same text once stripped (a heredoc's newline
// after an import, reindented text), or, for blank configured text, the
// plugin's value the state shows (stateIsPlugins). A null state cannot
// stay for configured text: the blank is planned, and Update sends nothing
// for it (textChanged).
func planText(configured, state types.String, stateIsPlugins bool) types.String {
	if framework.IsSet(state) && (record.SameText(configured.ValueString(), state.ValueString()) ||
		stateIsPlugins && record.IsBlank(configured.ValueString())) {
		return state
	}
	return configured
}

// planFilters plans filters: as configured, except that configured filters
// the service would store the same way as those in state keep the state's
// text (reformatting, or the service's normalisation read back by an
// import, is no change). Left out of the configuration, they are null
// (Update clears them), unless the state's filter nothing already.
func planFilters(configured types.String, proposed, state record.FiltersValue) record.FiltersValue {
	switch {
	case configured.IsUnknown():
		return proposed
	case configured.IsNull() && state.FiltersNothing():
		return state
	case configured.IsNull():
		return record.NewFiltersNull()
	case framework.IsSet(state) && record.FiltersEqual(configured.ValueString(), state.ValueString()):
		return state
	default:
		return record.NewFiltersValue(configured.ValueString())
	}
}

// configured is what planning needs of a configuration, read from its raw
// value: cheaper than the framework's conversions, which walk the schema.
type configured struct {
	settings, secret, filters types.String
	name, description         types.String
	nameNull, descriptionNull bool
	orderNull                 bool
	projectIDUnknown          bool
}

// configuredOf reads a configuration's raw value.
func configuredOf(raw tftypes.Value) configured {
	a := framework.RawAttributes(raw)
	return configured{
		settings: framework.RawString(a["config"]), secret: framework.RawString(a["secret_config_wo"]), filters: framework.RawString(a["filters"]),
		name: framework.RawString(a["name"]), description: framework.RawString(a["description"]),
		nameNull: a["name"].IsNull(), descriptionNull: a["description"].IsNull(),
		orderNull: a["order"].IsNull(), projectIDUnknown: !a["project_id"].IsKnown(),
	}
}

// needsPlanning reports whether a plan equal to state (whose attributes
// are given) still needs deciding: configured secret settings are checked
// against the plugin's secret keys; and values the configuration no longer
// sets, which the framework proposes to keep, may have to change (a name
// that should become the plugin's again, filters to remove). It mirrors
// fromPlugin.
func (c *configured) needsPlanning(state map[string]tftypes.Value, facts pluginFacts, known bool) bool {
	return !c.secret.IsNull() ||
		c.nameNull && known && (!facts.NameFromPlugin || facts.BlankName) && !state["name"].IsNull() ||
		c.descriptionNull && known && (!facts.DescriptionFromPlugin || facts.BlankDescription) && !state["description"].IsNull() ||
		c.filters.IsNull() && !record.NewFiltersRaw(framework.RawString(state["filters"])).FiltersNothing()
}

// planSettings plans the plugin settings (the `config` attribute).
// Configured, they are planned as written, except that the same settings
// written differently keep the state's text. Left out of the
// configuration, the settings are not managed: the state's value is kept.
//
// State holds the service's non-secret settings (the configured text while
// they are the same, see record.SettingsFromAPI): a key set elsewhere that
// the configuration does not set is planned for removal, as the service
// keeps only what `config` sends.
func planSettings(configured types.String, proposed, state jsontypes.Normalized) jsontypes.Normalized {
	switch {
	case configured.IsUnknown():
		return proposed
	case configured.IsNull():
		return state
	case framework.IsSet(state) &&
		jsonvalue.Equal(json.RawMessage(configured.ValueString()), json.RawMessage(state.ValueString())):
		return state
	default:
		return proposed
	}
}
