package record

import "strings"

// The hog function the service's migration builds from a config (the
// notes' "What a migration makes", PostHog's hog_function_from_plugin_config).

// templatePrefixes are the plugin urls whose plugins have a hog function
// template of their own; the rest of the url names it.
var templatePrefixes = []string{"https://github.com/PostHog/", "inline://"}

// HogTemplateID returns the hog function template that stands for the
// plugin at url (plugin_info's url), and whether there is one: plugins
// from PostHog's repositories and the inline ones have one, named by the
// rest of the url (two inline plugins' templates end in -plugin); others,
// and plugins written in the browser (no url), have none.
func HogTemplateID(url *string) (string, bool) {
	if url == nil {
		return "", false
	}
	for _, prefix := range templatePrefixes {
		if slug, ok := strings.CutPrefix(*url, prefix); ok && slug != "" {
			if slug == "semver-flattener" || slug == "user-agent" {
				slug += "-plugin"
			}
			return "plugin-" + slug, true
		}
	}
	return "", false
}
