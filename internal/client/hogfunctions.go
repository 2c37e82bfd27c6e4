package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// The hog function API, read only: what the config data sources need to
// tell a user the way off a config (the notes' "Hog function templates" and
// "The way off"). Writing hog functions is the official provider's.

// HogTemplate is a hog function template as the templates API answers it.
type HogTemplate struct {
	ID           string          `json:"id"`
	Name         *string         `json:"name"`
	Description  *string         `json:"description"`
	Type         string          `json:"type"`
	Status       string          `json:"status"`
	InputsSchema []TemplateInput `json:"inputs_schema"`
	Filters      json.RawMessage `json:"filters"`
}

// TemplateInput is one entry of a template's inputs_schema.
type TemplateInput struct {
	Key      string          `json:"key"`
	Secret   bool            `json:"secret"`
	Required bool            `json:"required"`
	Default  json.RawMessage `json:"default"`
}

// HogFunction is a hog function as the list answers it: what tells which
// config it was made of (its template and execution order).
type HogFunction struct {
	ID             string  `json:"id"`
	Name           *string `json:"name"`
	Type           string  `json:"type"`
	Enabled        bool    `json:"enabled"`
	ExecutionOrder *int64  `json:"execution_order"`
	Template       *struct {
		ID string `json:"id"`
	} `json:"template"`
}

// TemplateID is the id of the template f was made from, "" when none.
func (f *HogFunction) TemplateID() string {
	if f.Template == nil {
		return ""
	}
	return f.Template.ID
}

// HogTemplate returns template id as project's templates API shows it,
// whatever its status; a 404 means PostHog has no such template.
func (c *Client) HogTemplate(ctx context.Context, project, id string) (*HogTemplate, error) {
	if strings.TrimSpace(project) == "" || strings.TrimSpace(id) == "" {
		return nil, fmt.Errorf("project id and template id must not be empty")
	}
	return getJSON[HogTemplate](ctx, c, projectPath(project, "hog_function_templates")+url.PathEscape(id)+"/")
}

// HogFunctions returns every hog function of project of type typ that is
// not deleted, across all pages.
func (c *Client) HogFunctions(ctx context.Context, project, typ string) ([]HogFunction, error) {
	if strings.TrimSpace(project) == "" {
		return nil, fmt.Errorf("project id must not be empty")
	}
	path, q := projectPath(project, "hog_functions"), url.Values{"type": {typ}}
	what := fmt.Sprintf("the %s hog functions of project %s", typ, project)
	return listAll(ctx, what, c.pageSize, func(offset int) (*listPage[HogFunction], error) {
		return fetchPage[HogFunction](ctx, c, path, q, c.pageSize, offset)
	}, func(f *HogFunction) string { return f.ID })
}
