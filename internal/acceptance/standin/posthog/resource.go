package main

import (
	"context"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// hogFunction is the resource posthog_hog_function.
type hogFunction struct{ p *provided }

// model is the resource's state. Every JSON attribute is a plain string:
// Terraform compares its bytes.
type model struct {
	ID                  types.String `tfsdk:"id"`
	ProjectID           types.String `tfsdk:"project_id"`
	Type                types.String `tfsdk:"type"`
	Name                types.String `tfsdk:"name"`
	Description         types.String `tfsdk:"description"`
	Enabled             types.Bool   `tfsdk:"enabled"`
	Hog                 types.String `tfsdk:"hog"`
	InputsJSON          types.String `tfsdk:"inputs_json"`
	SensitiveInputsJSON types.String `tfsdk:"sensitive_inputs_json"`
	InputsSchemaJSON    types.String `tfsdk:"inputs_schema_json"`
	FiltersJSON         types.String `tfsdk:"filters_json"`
	MaskingJSON         types.String `tfsdk:"masking_json"`
	MappingsJSON        types.String `tfsdk:"mappings_json"`
	IconURL             types.String `tfsdk:"icon_url"`
	TemplateID          types.String `tfsdk:"template_id"`
	ExecutionOrder      types.Int64  `tfsdk:"execution_order"`
}

func pathOf(name string) path.Path { return path.Root(name) }

func (r *hogFunction) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_hog_function"
}

func (r *hogFunction) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	// Computed values the service gives stay as they are until configured.
	kept := func(extra ...planmodifier.String) []planmodifier.String {
		return append(extra, stringplanmodifier.UseStateForUnknown())
	}
	optional := schema.StringAttribute{Optional: true}
	optionalComputed := schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: kept()}
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id": schema.StringAttribute{Computed: true, PlanModifiers: kept()},
		"project_id": schema.StringAttribute{Optional: true, Computed: true,
			PlanModifiers: kept(stringplanmodifier.RequiresReplaceIfConfigured())},
		"type":        optionalComputed,
		"name":        optional,
		"description": optional,
		"enabled": schema.BoolAttribute{Optional: true, Computed: true,
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
		"hog":                   optionalComputed,
		"inputs_json":           optional,
		"sensitive_inputs_json": schema.StringAttribute{Optional: true, Sensitive: true},
		"inputs_schema_json":    optional,
		"filters_json":          optional,
		"masking_json":          optional,
		"mappings_json":         optional,
		"icon_url":              optionalComputed,
		"template_id":           optional,
		"execution_order": schema.Int64Attribute{Optional: true, Computed: true,
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}},
	}}
}

func (r *hogFunction) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if p, ok := req.ProviderData.(*provided); ok {
		r.p = p
	}
}

// inProject gives m the provider's project when it names none, and
// returns its project.
func (r *hogFunction) inProject(m *model) string {
	if m.ProjectID.IsNull() || m.ProjectID.IsUnknown() || m.ProjectID.ValueString() == "" {
		m.ProjectID = types.StringValue(r.p.project)
	}
	return m.ProjectID.ValueString()
}

// hasID reports whether m names a function.
func hasID(m *model) bool {
	return !m.ID.IsNull() && !m.ID.IsUnknown() && m.ID.ValueString() != ""
}

func (r *hogFunction) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body, diags := requestBody(&plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	var a answer
	if err := r.p.api.call(ctx, http.MethodPost, hogFunctionPath(r.inProject(&plan), ""), body, &a); err != nil {
		resp.Diagnostics.AddError("Could not create the hog function", err.Error())
		return
	}
	resp.Diagnostics.Append(readBack(&a, &plan)...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

func (r *hogFunction) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !hasID(&state) {
		resp.State.RemoveResource(ctx)
		return
	}
	var a answer
	err := r.p.api.call(ctx, http.MethodGet, hogFunctionPath(r.inProject(&state), state.ID.ValueString()), nil, &a)
	switch {
	case notFound(err):
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddError("Could not read hog function "+state.ID.ValueString(), err.Error())
		return
	}
	resp.Diagnostics.Append(readBack(&a, &state)...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	}
}

func (r *hogFunction) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !hasID(&state) {
		resp.Diagnostics.AddError("No hog function id in state", "The state names no hog function to update.")
		return
	}
	// The request goes to the function where it is: the state's project.
	project := r.inProject(&state)
	r.inProject(&plan)
	body, diags := requestBody(&plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if plan.Description.IsNull() && !state.Description.IsNull() {
		body["description"] = "" // removed from the configuration: cleared
	}
	var a answer
	err := r.p.api.call(ctx, http.MethodPatch, hogFunctionPath(project, state.ID.ValueString()), body, &a)
	switch {
	case notFound(err):
		resp.Diagnostics.AddWarning("Hog function gone",
			"Hog function "+state.ID.ValueString()+" was deleted outside Terraform; it is dropped from state and will be created again.")
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddError("Could not update hog function "+state.ID.ValueString(), err.Error())
		return
	}
	resp.Diagnostics.Append(readBack(&a, &plan)...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

// Delete is PostHog's soft delete: PATCH {"deleted": true}. A function
// already gone is no error.
func (r *hogFunction) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !hasID(&state) {
		resp.Diagnostics.AddError("No hog function id in state", "The state names no hog function to delete.")
		return
	}
	var a answer
	err := r.p.api.call(ctx, http.MethodPatch, hogFunctionPath(r.inProject(&state), state.ID.ValueString()),
		map[string]any{"deleted": true}, &a)
	if err != nil && !notFound(err) {
		resp.Diagnostics.AddError("Could not delete hog function "+state.ID.ValueString(), err.Error())
	}
}

// ImportState takes "<id>", in the provider's project, or
// "<project_id>/<id>", and reads the function at once.
func (r *hogFunction) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	m := model{ID: types.StringValue(req.ID), ProjectID: types.StringValue(r.p.project)}
	if project, id, ok := strings.Cut(req.ID, "/"); ok {
		m.ID, m.ProjectID = types.StringValue(id), types.StringValue(project)
	} else if r.p.project == "" {
		resp.Diagnostics.AddError("No project for the import",
			`Import "<project_id>/<id>", or set project_id in the provider block or POSTHOG_PROJECT_ID.`)
		return
	}
	var a answer
	if err := r.p.api.call(ctx, http.MethodGet, hogFunctionPath(m.ProjectID.ValueString(), m.ID.ValueString()), nil, &a); err != nil {
		resp.Diagnostics.AddError("Could not read hog function "+m.ID.ValueString()+" to import it", err.Error())
		return
	}
	resp.Diagnostics.Append(readBack(&a, &m)...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}
