package configresource

import (
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// madeBy reports whether rec may be the config a create of in made, as the
// service stores and shows what it was sent: an active config holding
// everything in sends. A name or description left out is checked by
// matchesFallback.
func madeBy(rec *client.Record, in client.RecordInput) bool {
	if rec.Deleted {
		return false
	}
	if v, _ := in.Plugin.Get(); rec.Plugin != v {
		return false
	}
	if v, _ := in.Enabled.Get(); rec.Enabled != v { // left out: the service's false
		return false
	}
	if v, ok := in.Order.Get(); ok && rec.Order != v {
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
