package configresource

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// The name and the description: text the service strips, counts as Python
// does, and shows as the plugin's own when it stores none.

// Limits the service enforces, checked at plan time.
const (
	maxNameLength        = 400
	maxDescriptionLength = 1000
)

func textAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: fmt.Sprintf("Name of the config, at most %d characters. Left out or blank, "+
				"PostHog shows the plugin's name.", maxNameLength),
			Validators: []validator.String{textValidator{max: maxNameLength}},
		},
		"description": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: fmt.Sprintf("Description of the config, at most %d characters. Left out or "+
				"blank, PostHog shows the plugin's description.", maxDescriptionLength),
			Validators: []validator.String{textValidator{max: maxDescriptionLength}},
		},
	}
}

// textValidator checks a name or description as the service does (the
// stock validators count bytes, whitespace included).
type textValidator struct{ max int }

func (v textValidator) Description(context.Context) string {
	return fmt.Sprintf("at most %d characters once leading and trailing whitespace is stripped, and no null character", v.max)
}

func (v textValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v textValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !framework.IsSet(req.ConfigValue) {
		return
	}
	s := req.ConfigValue.ValueString()
	if n := python.Len(Stored(s)); n > v.max {
		resp.Diagnostics.AddAttributeError(req.Path, "Text too long", fmt.Sprintf(
			"%s must be at most %d characters, got %d: the service counts characters (not bytes) once it has "+
				"stripped leading and trailing whitespace.", req.Path, v.max, n))
	}
	if strings.ContainsRune(s, 0) {
		resp.Diagnostics.AddAttributeError(req.Path, "Null character in text", fmt.Sprintf(
			"%s contains a null character (U+0000), which the service refuses.", req.Path))
	}
}

// planText plans a name or description. Left out it is the plugin's: the
// state's when that is (or nothing tells), else unknown. Configured, the
// state's when the service shows the same (or a blank for the plugin's).
func planText(configured, proposed, state types.String, isPlugins, blank, known bool) types.String {
	switch {
	case configured.IsUnknown():
		return proposed
	case configured.IsNull() && (!known || isPlugins && !blank || state.IsNull()):
		return state
	case configured.IsNull():
		return types.StringUnknown()
	case framework.IsSet(state) && (SameText(configured.ValueString(), state.ValueString()) ||
		known && isPlugins && IsBlank(configured.ValueString())):
		return state
	}
	return configured
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

// Stored is the text the service stores for a configured name or
// description: stripped as Python's str.strip() does.
func Stored(s string) string { return python.Strip(s) }

// IsBlank reports whether the service stores s as "", and so shows the
// plugin's text.
func IsBlank(s string) bool { return Stored(s) == "" }

// SameText reports whether the service stores a and b the same way.
func SameText(a, b string) bool { return Stored(a) == Stored(b) }

// TextFromAPI is a name or description for the state: prior (configured or
// state) while got, the service's, shows what it stands for (its stripped
// text; for a blank, an empty got or, if keepBlank, the plugin's text); else
// got, null as "" (a configured blank plans "" only against a prior "").
func TextFromAPI(got *string, prior types.String, keepBlank bool) types.String {
	if framework.IsSet(prior) {
		switch stored := Stored(prior.ValueString()); {
		case stored != "" && got != nil && *got == stored:
			return prior
		case stored == "" && (got == nil || *got == "" || keepBlank):
			return prior
		case got == nil:
			return types.StringValue("")
		}
	}
	return types.StringPointerValue(got)
}

// isBlank reports whether a configured name or description is set and blank.
func isBlank(v types.String) bool { return framework.IsSet(v) && IsBlank(v.ValueString()) }
