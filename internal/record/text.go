package record

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// A config's name and description are text the service rewrites: it strips
// leading and trailing whitespace as Python's str.strip() does and stores
// what is left (whitespace alone as ""), and it shows `name or
// plugin.name`: a config whose own is "" or null shows its plugin's, which
// is text, "" or null. Configured text that the service stores this way is
// no change, so plans keep the configured (or state) text wherever the
// service shows what it stands for; these functions say when.

// Stored is the text the service stores for configured text s.
func Stored(s string) string { return python.Strip(s) }

// IsBlank reports whether the service stores s as "" (and so shows the
// plugin's text): s is empty or whitespace only.
func IsBlank(s string) bool { return Stored(s) == "" }

// SameText reports whether the service stores a and b the same way.
func SameText(a, b string) bool { return Stored(a) == Stored(b) }

// TextFromAPI is a name or description as the state keeps it, for got, the
// service's, and prior, the configured or state value: prior stays when
// the service shows what it stands for, which is
//
//   - its stripped text, for text that is not blank;
//   - for a blank prior, an empty got (always the plugin's), or, when
//     keepBlank says a blank stands for it, the plugin's text got is.
//
// Otherwise the state shows the service's value, except that null, where
// the state had a value, is "": the text became the plugin's, which is
// empty (an upgrade removed it), and a configuration that sets a blank can
// plan "" only against a prior "" (Terraform allows a configured value, or
// the prior one), so a null would plan a change that sends nothing.
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
