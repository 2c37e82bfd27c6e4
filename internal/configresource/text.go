package configresource

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

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
