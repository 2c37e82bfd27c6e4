// Command posthog is a test-only stand-in for the official PostHog provider
// (registry posthog/posthog, PostHog/terraform-provider-posthog) with its
// one resource the guide "Moving to hog functions" uses:
// posthog_hog_function. That provider cannot be installed offline; the
// guide's steps run against the local API with this instead.
//
// Its provider settings and the resource's attributes are the official
// ones as its docs give them (docs/index.md, docs/resources/hog_function.md,
// with sensitive_inputs_json), those the guide needs: host, api_key,
// project_id and organization_id (POSTHOG_HOST, POSTHOG_API_KEY,
// POSTHOG_PROJECT_ID, POSTHOG_ORGANIZATION_ID); id, name, type,
// description, enabled, template_id, inputs_json, sensitive_inputs_json,
// filters_json and execution_order. It calls the routes the official client
// calls (internal/httpclient/hog_function.go: /api/environments/<project>/
// hog_functions/, a delete being PATCH {"deleted": true}) and keeps in
// state what the official resource keeps (internal/resource/
// hog_function.go and its tests): the JSON attributes compared as JSON
// (jsontypes.Normalized); the inputs sent are inputs_json and
// sensitive_inputs_json merged, the latter winning; inputs_json reads back
// the service's inputs of its own keys and fields, server fields (bytecode,
// order) left out, or every input when neither is set (an import);
// sensitive_inputs_json is never read back (only emptied when the service
// has no inputs at all); filters_json reads back the fields it set, without
// bytecode, and stays null when unset; template_id is kept, or after an
// import the service's template's; description removed from the
// configuration is sent as "". An import takes "<id>" (in the provider's
// project) or "<project_id>/<id>".
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &posthog{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/posthog/posthog"})
	if err != nil {
		log.Fatal(err)
	}
}

type posthog struct{}

type settings struct {
	Host           types.String `tfsdk:"host"`
	APIKey         types.String `tfsdk:"api_key"`
	ProjectID      types.String `tfsdk:"project_id"`
	OrganizationID types.String `tfsdk:"organization_id"`
}

// client calls the service with the provider's settings.
type client struct {
	host, key, project string
	http               *http.Client
}

func (p *posthog) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "posthog"
}

func (p *posthog) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{Attributes: map[string]pschema.Attribute{
		"host":            pschema.StringAttribute{Optional: true},
		"api_key":         pschema.StringAttribute{Optional: true, Sensitive: true},
		"project_id":      pschema.StringAttribute{Optional: true},
		"organization_id": pschema.StringAttribute{Optional: true},
	}}
}

// setting is the configured value, else the environment variable's, else
// def.
func setting(v types.String, env, def string) string {
	if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
		return v.ValueString()
	}
	if e := os.Getenv(env); e != "" {
		return e
	}
	return def
}

func (p *posthog) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var s settings
	resp.Diagnostics.Append(req.Config.Get(ctx, &s)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := &client{
		host:    strings.TrimSuffix(setting(s.Host, "POSTHOG_HOST", "https://us.posthog.com"), "/"),
		key:     setting(s.APIKey, "POSTHOG_API_KEY", ""),
		project: setting(s.ProjectID, "POSTHOG_PROJECT_ID", ""),
		http:    &http.Client{Timeout: 30 * time.Second},
	}
	if c.key == "" {
		resp.Diagnostics.AddError("Missing API key", "Set api_key or POSTHOG_API_KEY.")
	}
	resp.ResourceData = c
}

func (p *posthog) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (p *posthog) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &hogFunction{} }}
}

// do sends method to path with body as JSON and decodes the answer into
// out; status is the answer's.
func (c *client) do(ctx context.Context, method, path string, body, out any) (status int, err error) {
	var rd io.Reader
	if body != nil {
		buf, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.host+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("API error (status %d): %s", resp.StatusCode, raw)
	}
	return resp.StatusCode, json.Unmarshal(raw, out)
}

func hogPath(project, id string) string {
	p := fmt.Sprintf("/api/environments/%s/hog_functions/", project)
	if id != "" {
		p += id + "/"
	}
	return p
}

type hogFunction struct{ c *client }

// model is the resource's state.
type model struct {
	ID                  types.String         `tfsdk:"id"`
	Name                types.String         `tfsdk:"name"`
	Type                types.String         `tfsdk:"type"`
	Description         types.String         `tfsdk:"description"`
	Enabled             types.Bool           `tfsdk:"enabled"`
	TemplateID          types.String         `tfsdk:"template_id"`
	InputsJSON          jsontypes.Normalized `tfsdk:"inputs_json"`
	SensitiveInputsJSON jsontypes.Normalized `tfsdk:"sensitive_inputs_json"`
	FiltersJSON         jsontypes.Normalized `tfsdk:"filters_json"`
	ExecutionOrder      types.Int64          `tfsdk:"execution_order"`
}

// answer is a hog function as the service answers it.
type answer struct {
	ID             string         `json:"id"`
	Type           *string        `json:"type"`
	Name           *string        `json:"name"`
	Description    *string        `json:"description"`
	Enabled        *bool          `json:"enabled"`
	Inputs         map[string]any `json:"inputs"`
	Filters        map[string]any `json:"filters"`
	ExecutionOrder *int64         `json:"execution_order"`
	Template       *struct {
		ID string `json:"id"`
	} `json:"template"`
}

func (r *hogFunction) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "posthog_hog_function"
}

func (r *hogFunction) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	jsonAttr := func(sensitive bool) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Sensitive: sensitive, CustomType: jsontypes.NormalizedType{}}
	}
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":                    schema.StringAttribute{Computed: true, PlanModifiers: keep},
		"type":                  schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keep},
		"name":                  schema.StringAttribute{Optional: true},
		"description":           schema.StringAttribute{Optional: true},
		"enabled":               schema.BoolAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
		"template_id":           schema.StringAttribute{Optional: true},
		"inputs_json":           jsonAttr(false),
		"sensitive_inputs_json": jsonAttr(true),
		"filters_json":          jsonAttr(false),
		"execution_order": schema.Int64Attribute{Optional: true, Computed: true,
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}},
	}}
}

func (r *hogFunction) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if c, ok := req.ProviderData.(*client); ok {
		r.c = c
	}
}

// request is the body of a create or update, from the plan.
func request(m *model, diags *diag.Diagnostics) map[string]any {
	body := map[string]any{}
	set := func(name string, v interface {
		IsNull() bool
		IsUnknown() bool
	}, value any) {
		if !v.IsNull() && !v.IsUnknown() {
			body[name] = value
		}
	}
	set("type", m.Type, m.Type.ValueString())
	set("name", m.Name, m.Name.ValueString())
	set("description", m.Description, m.Description.ValueString())
	set("enabled", m.Enabled, m.Enabled.ValueBool())
	set("template_id", m.TemplateID, m.TemplateID.ValueString())
	set("execution_order", m.ExecutionOrder, m.ExecutionOrder.ValueInt64())
	inputs := map[string]any{}
	for _, j := range []jsontypes.Normalized{m.InputsJSON, m.SensitiveInputsJSON} {
		var part map[string]any
		if decode(j, &part, diags) {
			for k, v := range part {
				inputs[k] = v
			}
		}
	}
	if len(inputs) > 0 {
		body["inputs"] = inputs
	}
	var filters map[string]any
	if decode(m.FiltersJSON, &filters, diags) && len(filters) > 0 {
		body["filters"] = filters
	}
	return body
}

// decode reads a JSON attribute into out; false when it is null, unknown
// or blank.
func decode(j jsontypes.Normalized, out any, diags *diag.Diagnostics) bool {
	if j.IsNull() || j.IsUnknown() || strings.TrimSpace(j.ValueString()) == "" {
		return false
	}
	diags.Append(j.Unmarshal(out)...)
	return !diags.HasError()
}

// fromAnswer sets m from the service's answer as the official resource
// does (MapResponseToModel).
func fromAnswer(a *answer, m *model, diags *diag.Diagnostics) {
	m.ID = types.StringValue(a.ID)
	m.Type = textOrNull(a.Type)
	m.Name, m.Description = textOrNull(a.Name), textOrNull(a.Description)
	m.Enabled = types.BoolValue(a.Enabled != nil && *a.Enabled)
	if m.TemplateID.IsNull() && a.Template != nil && a.Template.ID != "" {
		m.TemplateID = types.StringValue(a.Template.ID)
	}
	m.ExecutionOrder = types.Int64PointerValue(a.ExecutionOrder)
	inputs, _ := stripServerFields(a.Inputs).(map[string]any)
	switch {
	case m.InputsJSON.IsNull() && m.SensitiveInputsJSON.IsNull():
		if len(inputs) > 0 { // an import: every input
			m.InputsJSON = jsonValue(inputs, diags)
		}
	case !m.InputsJSON.IsNull():
		var mine map[string]any
		decode(m.InputsJSON, &mine, diags)
		m.InputsJSON = jsonValue(onlyFieldsOf(mine, inputs), diags)
	}
	if !m.SensitiveInputsJSON.IsNull() && len(a.Inputs) == 0 {
		m.SensitiveInputsJSON = jsontypes.NewNormalizedValue("{}")
	}
	if !m.FiltersJSON.IsNull() {
		var mine map[string]any
		decode(m.FiltersJSON, &mine, diags)
		filters := map[string]any{}
		for k, v := range a.Filters {
			if k != "bytecode" {
				filters[k] = v
			}
		}
		m.FiltersJSON = jsonValue(onlyFieldsOf(mine, filters), diags)
	}
}

func textOrNull(s *string) types.String {
	if s == nil || strings.TrimSpace(*s) == "" {
		return types.StringNull()
	}
	return types.StringValue(strings.TrimSpace(*s))
}

func jsonValue(v any, diags *diag.Diagnostics) jsontypes.Normalized {
	raw, err := json.Marshal(v)
	if err != nil {
		diags.AddError("Encoding JSON", err.Error())
	}
	return jsontypes.NewNormalizedValue(string(raw))
}

// onlyFieldsOf is what of the service's value the configured one has: the
// members of the configured objects, the service's values (the official
// filterToOnlyIncludeUserFields).
func onlyFieldsOf(mine, theirs any) any {
	m, ok1 := mine.(map[string]any)
	t, ok2 := theirs.(map[string]any)
	if !ok1 || !ok2 {
		return theirs
	}
	out := map[string]any{}
	for k, v := range m {
		if tv, ok := t[k]; ok {
			out[k] = onlyFieldsOf(v, tv)
		}
	}
	return out
}

// stripServerFields drops what the service adds to inputs (bytecode,
// order) at every depth.
func stripServerFields(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "bytecode" && k != "order" {
				out[k] = stripServerFields(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stripServerFields(e)
		}
		return out
	}
	return v
}

// project is the project a hog function lives in: the one its import
// named (private state), else the provider's.
func (r *hogFunction) project(ctx context.Context, private interface {
	GetKey(context.Context, string) ([]byte, diag.Diagnostics)
}, diags *diag.Diagnostics) string {
	if private != nil {
		raw, d := private.GetKey(ctx, "project")
		diags.Append(d...)
		var p string
		if len(raw) > 0 && json.Unmarshal(raw, &p) == nil && p != "" {
			return p
		}
	}
	if r.c.project == "" {
		diags.AddError("Missing project_id", "Set project_id or POSTHOG_PROJECT_ID.")
	}
	return r.c.project
}

func (r *hogFunction) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	body := request(&m, &resp.Diagnostics)
	project := r.project(ctx, nil, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var a answer
	if _, err := r.c.do(ctx, http.MethodPost, hogPath(project, ""), body, &a); err != nil {
		resp.Diagnostics.AddError("Error creating hog_function", err.Error())
		return
	}
	fromAnswer(&a, &m, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *hogFunction) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m model
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	project := r.project(ctx, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var a answer
	status, err := r.c.do(ctx, http.MethodGet, hogPath(project, m.ID.ValueString()), nil, &a)
	switch {
	case status == http.StatusNotFound:
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddError("Error reading hog_function", err.Error())
		return
	}
	fromAnswer(&a, &m, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *hogFunction) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	body := request(&plan, &resp.Diagnostics)
	if plan.Description.IsNull() && !state.Description.IsNull() {
		body["description"] = "" // cleared, as the official BuildUpdateRequest does
	}
	project := r.project(ctx, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var a answer
	if _, err := r.c.do(ctx, http.MethodPatch, hogPath(project, state.ID.ValueString()), body, &a); err != nil {
		resp.Diagnostics.AddError("Error updating hog_function", err.Error())
		return
	}
	fromAnswer(&a, &plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete is PostHog's soft delete: PATCH {"deleted": true}.
func (r *hogFunction) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m model
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	project := r.project(ctx, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var a answer
	status, err := r.c.do(ctx, http.MethodPatch, hogPath(project, m.ID.ValueString()), map[string]any{"deleted": true}, &a)
	if err != nil && status != http.StatusNotFound {
		resp.Diagnostics.AddError("Error deleting hog_function", err.Error())
	}
}

// ImportState takes "<id>" or "<project_id>/<id>"; the plan's refresh reads
// the rest.
func (r *hogFunction) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := req.ID
	if project, rest, ok := strings.Cut(req.ID, "/"); ok {
		raw, _ := json.Marshal(project)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, "project", raw)...)
		id = rest
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
}
