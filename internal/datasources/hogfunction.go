package datasources

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// The way off a config, as the service really gives it: see DESIGN.md, "The
// way off needs no `migrate`". posthog_hog_function compares JSON byte for
// byte, so every JSON text here is written as it reads it back (marshalAsGo).

// HogTemplateID returns the hog function template PostHog names for the
// plugin at url (plugin_info's url): "plugin-" and the url without
// PostHog's repository prefix or "inline://", wherever they occur, as
// PostHog's slug rule has it; ok is false for a url with neither (a plugin
// of another repository, or written in the browser), which has none.
func HogTemplateID(url *string) (string, bool) {
	if url == nil {
		return "", false
	}
	slug := strings.ReplaceAll(strings.ReplaceAll(*url, "inline://", ""), "https://github.com/PostHog/", "")
	if slug == *url || slug == "" {
		return "", false
	}
	if slug == "semver-flattener" || slug == "user-agent" {
		slug += "-plugin"
	}
	return "plugin-" + slug, true
}

// HogFunction is the hog_function attribute.
type HogFunction struct {
	Available       types.Bool   `tfsdk:"available"`
	Reason          types.String `tfsdk:"reason"`
	TemplateID      types.String `tfsdk:"template_id"`
	TemplateStatus  types.String `tfsdk:"template_status"`
	Type            types.String `tfsdk:"type"`
	Name            types.String `tfsdk:"name"`
	Description     types.String `tfsdk:"description"`
	InputsJSON      types.String `tfsdk:"inputs_json"`
	SecretInputs    []string     `tfsdk:"secret_inputs"`
	DroppedSettings []string     `tfsdk:"dropped_settings"`
	FiltersJSON     types.String `tfsdk:"filters_json"`
	ExecutionOrder  types.Int64  `tfsdk:"execution_order"`
	Enabled         types.Bool   `tfsdk:"enabled"`
	ExistingID      types.String `tfsdk:"existing_id"`
}

// hogFunctionAttribute is the config's way off, in posthog_hog_function's terms.
func hogFunctionAttribute() schema.SingleNestedAttribute {
	forArg := func(arg, what string) schema.StringAttribute {
		return computedString(fmt.Sprintf("For `%s`: %s", arg, what))
	}
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "The hog function that can succeed this config, in the terms of the official " +
			"provider's `posthog_hog_function` (the key needs `hog_function:read`). See the guide \"Moving to hog functions\".",
		Attributes: map[string]schema.Attribute{
			"available":        computedBool("Whether a hog function can be written from the template that succeeds the plugin."),
			"reason":           computedString("Why not, and what to do instead; also what PostHog already made of the config."),
			"template_id":      forArg("template_id", "the template that succeeds the plugin (`plugin-<slug>` of its url); null when there is none."),
			"template_status":  computedString("The template's status: `stable`, `deprecated` (usable) or `hidden` (refused)."),
			"type":             forArg("type", "the template's type."),
			"name":             forArg("name", "the plugin's name."),
			"description":      forArg("description", "the template's."),
			"inputs_json":      forArg("inputs_json", "the non-secret settings the template keeps."),
			"secret_inputs":    computedStrings("The secrets the template keeps: give them again in `sensitive_inputs_json`."),
			"dropped_settings": computedStrings("The settings the template drops."),
			"filters_json":     forArg("filters_json", "the filters PostHog answers."),
			"execution_order":  computedInt64("For `execution_order`: the config's `order`."),
			"enabled":          computedBool("For `enabled`: the config's, or that of the function PostHog made."),
			"existing_id":      computedString("The hog function PostHog already made of this config: import it."),
		},
	}
}

// Successors looks up the successors of a project's configs for one read
// of a data source: each template once, the project's hog functions once.
// A failed lookup leaves out what it would have told, and Warn says so
// once. A read looks up one config after another: no lock.
type Successors struct {
	c         *client.Client
	project   string
	templates map[string]*client.HogTemplate // nil value: PostHog has no such template
	functions []client.HogFunction
	listed    bool
	failed    error
}

// NewSuccessors returns the lookups of project's successors through c.
func NewSuccessors(c *client.Client, project string) *Successors {
	return &Successors{c: c, project: project, templates: map[string]*client.HogTemplate{}}
}

// Warn adds the warning of what the lookups could not tell, if anything
// failed: a key without hog_function:read still reads the configs.
func (s *Successors) Warn(diags *diag.Diagnostics) {
	if s.failed == nil {
		return
	}
	detail := "hog_function shows only what the configs tell: whether a template can succeed each config, which " +
		"settings it keeps and which hog functions PostHog already made stay unknown.\n\n"
	if client.IsForbidden(s.failed) {
		detail += "The API key may not read hog functions: give it the hog_function:read scope (PostHog: Settings, " +
			"Personal API keys), which the official provider's posthog_hog_function needs anyway.\n\n"
	}
	diags.AddAttributeWarning(path.Root("hog_function"), "Hog function templates could not be read", detail+s.failed.Error())
}

// template returns template id, nil when PostHog has none; known is false
// when it could not be told.
func (s *Successors) template(ctx context.Context, id string) (t *client.HogTemplate, known bool) {
	if t, ok := s.templates[id]; ok {
		return t, true
	}
	if s.failed != nil {
		return nil, false
	}
	t, err := s.c.HogTemplate(ctx, s.project, id)
	if err != nil && !client.IsNotFound(err) { // not found: t is nil
		s.failed = err
		return nil, false
	}
	s.templates[id] = t
	return t, true
}

// existing returns the project's hog functions made from template at
// execution order, and the ids of those of the template at other orders;
// known is false when they could not be listed.
func (s *Successors) existing(ctx context.Context, template string, order int64) (same []client.HogFunction, others []string, known bool) {
	if !s.listed && s.failed == nil {
		s.functions, s.failed = s.c.HogFunctions(ctx, s.project, "transformation")
		s.listed = s.failed == nil
	}
	if !s.listed {
		return nil, nil, false
	}
	for _, f := range s.functions {
		switch {
		case f.TemplateID() != template:
		case f.ExecutionOrder != nil && *f.ExecutionOrder == order:
			same = append(same, f)
		default:
			others = append(others, f.ID)
		}
	}
	return same, others, true
}

// Of returns the successor of config rec of collection coll, which carries
// plugin_info and the stored settings (secrets masked).
func (s *Successors) Of(ctx context.Context, coll client.Collection, rec *client.Record) *HogFunction {
	h := &HogFunction{Available: types.BoolValue(false), Enabled: types.BoolValue(rec.Enabled)} // others: null
	if coll != client.Transformations {
		h.Reason = types.StringValue("Import apps have no hog function successor: PostHog has no template for them and " +
			"its migration leaves them out. PostHog suggests a scheduled job of your own that sends the events, or a " +
			"data warehouse source (the official provider's posthog_external_data_source, v1.0.11 on).")
		return h
	}
	var info struct {
		URL *string `json:"url"`
	}
	_ = json.Unmarshal(rec.PluginInfo, &info) // lenient: plugin_info may be null
	id, ok := HogTemplateID(info.URL)
	if !ok {
		h.Reason = types.StringValue("PostHog has no hog function template for this plugin (only plugins of PostHog's " +
			"own repositories have one): write the hog function yourself, from PostHog's transformation templates or " +
			"your own code, or keep the config until PostHog removes the API.")
		return h
	}
	h.TemplateID = types.StringValue(id)
	t, known := s.template(ctx, id)
	switch {
	case !known:
		h.Reason = types.StringValue("Unknown: the hog function templates could not be read (see the warning).")
		return h
	case t == nil:
		h.Reason = types.StringValue(fmt.Sprintf("PostHog has no template %s for this plugin: write the hog function "+
			"yourself, or keep the config until PostHog removes the API.", id))
		return h
	}
	missing := fill(h, t, rec)
	switch {
	case t.Status == "hidden":
		h.Reason = types.StringValue(fmt.Sprintf("The template %s is internal (hidden): PostHog refuses to create a "+
			"function from it, and keeps one made from it enabled no longer. Choose another template for the "+
			"function yourself (for GeoIP, PostHog's own GeoIP transformation, template-geoip).", id))
	case len(missing) > 0:
		h.Reason = types.StringValue(fmt.Sprintf("The template %s requires inputs the config does not hold (%s), "+
			"which PostHog refuses to leave out: write the function yourself with them in inputs_json or "+
			"sensitive_inputs_json.", id, strings.Join(missing, ", ")))
	default:
		h.Available = types.BoolValue(true)
	}
	same, others, known := s.existing(ctx, id, rec.Order)
	switch {
	case !known:
		h.Reason = joinReason(h.Reason, "Whether PostHog already made a hog function of this config is unknown (see the warning).")
	case len(same) > 0:
		// What the function is now: importing it must not switch it on or off.
		h.ExistingID, h.Enabled = types.StringValue(same[0].ID), types.BoolValue(same[0].Enabled)
		h.Reason = joinReason(h.Reason, existingReason(h.Available.ValueBool(), same))
	case len(others) > 0:
		h.Reason = joinReason(h.Reason, fmt.Sprintf("PostHog holds hog functions of the same template at another "+
			"execution order (%s): if one of them was made from this config, import it instead of writing another.",
			strings.Join(others, ", ")))
	}
	return h
}

// fill sets what template t makes of config rec: the type, name and
// description the service gives it, the settings the template keeps, the
// secrets to supply again, the filters the service answers, the order. It
// returns the inputs t requires that neither the settings nor a default
// give.
func fill(h *HogFunction, t *client.HogTemplate, rec *client.Record) (missing []string) {
	h.TemplateStatus = types.StringValue(t.Status)
	h.Type = types.StringValue(t.Type)
	p := configresource.PluginOf(rec.PluginInfo)
	switch {
	case p.Name.Text != nil && strings.TrimSpace(*p.Name.Text) != "":
		h.Name = types.StringValue(strings.TrimSpace(*p.Name.Text))
	case t.Name != nil && strings.TrimSpace(*t.Name) != "":
		h.Name = types.StringValue(strings.TrimSpace(*t.Name))
	}
	if t.Description != nil && strings.TrimSpace(*t.Description) != "" {
		h.Description = types.StringValue(strings.TrimSpace(*t.Description))
	}
	if o := rec.Order; o >= 0 && o <= math.MaxInt16 { // the top of execution_order's range
		h.ExecutionOrder = types.Int64Value(o)
	}
	declared := map[string]bool{}
	for _, in := range t.InputsSchema {
		declared[in.Key] = true
	}
	settings, _ := configresource.ParseSettings(string(rec.Settings))
	inputs := map[string]any{}
	secrets, dropped := []string{}, []string{} // [], not null, once a template is known
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		v := settings[k]
		switch {
		case python.IsNull(v) || string(v) == `""` && p.SecretKeys[k]:
		case !declared[k]:
			dropped = append(dropped, k)
		case p.SecretKeys[k] || configresource.IsMasked(v):
			secrets = append(secrets, k)
		default:
			var val any
			if json.Unmarshal(v, &val) == nil {
				inputs[k] = map[string]any{"value": val}
			}
		}
	}
	h.InputsJSON = types.StringValue(marshalAsGo(inputs))
	h.SecretInputs, h.DroppedSettings = secrets, dropped
	h.FiltersJSON = types.StringValue(answeredFilters(t.Filters))
	for _, in := range t.InputsSchema {
		_, given := inputs[in.Key]
		// PostHog refuses a required input that is missing, null or "", its default's included.
		if in.Required && !given && !slices.Contains(secrets, in.Key) && (python.IsNull(in.Default) || string(in.Default) == `""`) {
			missing = append(missing, in.Key)
		}
	}
	return missing
}

// answeredFilters is what posthog_hog_function reads back of the filters
// the service answers for a function made from a template with filters
// raw: the template's (none: {}), with PostHog's default source, without
// the compiled bytecode (nor "order", which it strips too).
func answeredFilters(raw json.RawMessage) string {
	var f map[string]any
	if json.Unmarshal(raw, &f) != nil || f == nil {
		f = map[string]any{}
	}
	if _, ok := f["source"]; !ok {
		f["source"] = "events"
	}
	stripServerFields(f)
	return marshalAsGo(f)
}

// stripServerFields drops the keys the official provider drops from every
// JSON attribute it reads back, at any depth, from v, which it changes.
func stripServerFields(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "bytecode")
		delete(v, "order")
		for _, e := range v {
			stripServerFields(e)
		}
	case []any:
		for _, e := range v {
			stripServerFields(e)
		}
	}
}

// marshalAsGo writes v as Go's json.Marshal does, after a round trip
// through interface{} (numbers as float64), as the official provider
// writes what it reads back.
func marshalAsGo(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	var round any
	if json.Unmarshal(b, &round) == nil {
		b, _ = json.Marshal(round) // a value just decoded always encodes
	}
	return string(b)
}

// existingReason says what to do with the hog functions PostHog already
// made of a config.
func existingReason(available bool, fns []client.HogFunction) string {
	msg := fmt.Sprintf("PostHog already made hog function %s of this config (its template and execution order "+
		"match): import it rather than write another, or both run on every event.", fns[0].ID)
	if !available {
		msg = fmt.Sprintf("PostHog already made hog function %s of this config from that template: it can only be "+
			"disabled or deleted.", fns[0].ID)
	}
	if len(fns) > 1 {
		ids := make([]string, len(fns))
		for i := range fns {
			ids[i] = fns[i].ID
		}
		msg += fmt.Sprintf(" There is more than one (%s): each runs on every event.", strings.Join(ids, ", "))
	}
	return msg
}

func joinReason(r types.String, more string) types.String {
	return types.StringValue(strings.TrimSpace(r.ValueString() + " " + more))
}
