package localapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// The hog function templates the service offers (PostHog keeps them in its
// HogFunctionTemplate table): the 40 legacy plugin templates of the notes'
// "Hog function templates", as legacy-plugin-templates.json gives them (our
// copy of ../shared/api's, checked against it by a test), and the native
// templates the local API needs besides (native-templates.json): the
// SendGrid migrator's, and GeoIP's successor.

//go:embed templatedata/legacy-plugin-templates.json
var legacyTemplatesJSON []byte

//go:embed templatedata/native-templates.json
var nativeTemplatesJSON []byte

// hogTemplate is a template as PostHog's HogFunctionTemplateSerializer
// answers it, its fields in that order.
type hogTemplate struct {
	ID               string          `json:"id"`
	Name             string          `json:"name"`
	Description      string          `json:"description"`
	Code             string          `json:"code"`
	CodeLanguage     string          `json:"code_language"`
	InputsSchema     json.RawMessage `json:"inputs_schema"`
	Type             string          `json:"type"`
	Status           string          `json:"status"`
	Category         []string        `json:"category"`
	Free             bool            `json:"free"`
	IconURL          *string         `json:"icon_url"`
	Filters          json.RawMessage `json:"filters"`
	Masking          json.RawMessage `json:"masking"`
	MappingTemplates json.RawMessage `json:"mapping_templates"`
}

// legacyTemplate is an entry of legacy-plugin-templates.json: what was
// read of PostHog's legacy plugin templates.
type legacyTemplate struct {
	ID           string          `json:"template_id"`
	Name         string          `json:"name"`
	Type         string          `json:"type"`
	Status       string          `json:"status"`
	PluginURL    string          `json:"plugin_url"`
	Description  string          `json:"description"`
	InputsSchema json.RawMessage `json:"inputs_schema"`
	Filters      json.RawMessage `json:"filters"`
}

// The code of every legacy plugin template: the plugin itself runs behind
// it (PostHog's template.ts files say so).
const (
	legacyTemplateCode     = "return event"
	legacyTemplateLanguage = "javascript"
)

// asTemplate fills what the data leaves out as PostHog's template.ts files
// mostly have it (*choice*: they differ from plugin to plugin): free and
// category ["Transformation"] for transformations, neither for
// destinations, and the plugin repository's logo as the icon.
func (l *legacyTemplate) asTemplate() *hogTemplate {
	t := &hogTemplate{ID: l.ID, Name: l.Name, Description: l.Description, Code: legacyTemplateCode,
		CodeLanguage: legacyTemplateLanguage, InputsSchema: l.InputsSchema, Type: l.Type, Status: l.Status,
		Category: []string{}, Filters: l.Filters}
	if l.Type == "transformation" {
		t.Free, t.Category = true, []string{"Transformation"}
	}
	icon := "https://raw.githubusercontent.com/posthog/" + path.Base(l.PluginURL) + "/main/logo.png"
	t.IconURL = &icon
	return t
}

// templateCatalog is every template, in the order of the data (legacy
// ones first), and by ID.
type templateCatalog struct {
	all  []*hogTemplate
	byID map[string]*hogTemplate
}

// hogTemplates is the service's template catalog: fixed data, the same for
// every server.
var hogTemplates = mustLoadTemplates(legacyTemplatesJSON, nativeTemplatesJSON)

func mustLoadTemplates(legacy, native []byte) *templateCatalog {
	c, err := loadTemplates(legacy, native)
	if err != nil {
		panic(fmt.Sprintf("localapi: the embedded templates: %v", err)) // a test loads them
	}
	return c
}

func loadTemplates(legacy, native []byte) (*templateCatalog, error) {
	var olds []legacyTemplate
	if err := json.Unmarshal(legacy, &olds); err != nil {
		return nil, fmt.Errorf("legacy templates: %w", err)
	}
	var news []*hogTemplate
	if err := json.Unmarshal(native, &news); err != nil {
		return nil, fmt.Errorf("native templates: %w", err)
	}
	c := &templateCatalog{byID: map[string]*hogTemplate{}}
	for i := range olds {
		c.all = append(c.all, olds[i].asTemplate())
	}
	c.all = append(c.all, news...)
	for _, t := range c.all {
		if t.ID == "" || c.byID[t.ID] != nil {
			return nil, fmt.Errorf("template id %q empty or used twice", t.ID)
		}
		var items []inputSchema
		if err := json.Unmarshal(t.InputsSchema, &items); err != nil {
			return nil, fmt.Errorf("template %s: inputs_schema: %w", t.ID, err)
		}
		c.byID[t.ID] = t
	}
	return c, nil
}

// get returns the template id, or nil.
func (c *templateCatalog) get(id string) *hogTemplate { return c.byID[id] }

// forPlugin returns the template a create or a bulk migration builds a
// plugin's hog function from: plugin-<slug> of the plugin's url (the notes'
// "What a create or a bulk migration makes"), or nil when there is none.
func (c *templateCatalog) forPlugin(p *Plugin) *hogTemplate {
	id, ok := pluginTemplateID(p.URL)
	if !ok {
		return nil
	}
	return c.get(id)
}

// pluginTemplateID is PostHog's slug rule: the url without
// https://github.com/PostHog/ or inline:// (replaced wherever they occur,
// case-sensitive), -plugin after the two inline plugins whose templates
// are so named. A plugin without a url (written in the browser) has none.
func pluginTemplateID(url string) (string, bool) {
	if url == "" {
		return "", false
	}
	slug := strings.ReplaceAll(strings.ReplaceAll(url, "inline://", ""), "https://github.com/PostHog/", "")
	if slug == "semver-flattener" || slug == "user-agent" {
		slug += "-plugin"
	}
	return "plugin-" + slug, true
}

// schema is the template's inputs_schema, decoded (checked when loaded).
func (t *hogTemplate) schema() []inputSchema {
	var items []inputSchema
	_ = json.Unmarshal(t.InputsSchema, &items)
	return items
}
