package main

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type postHog struct{}

func newProvider() provider.Provider { return &postHog{} }

// settings are the provider's configuration.
type settings struct {
	Host           types.String `tfsdk:"host"`
	APIKey         types.String `tfsdk:"api_key"`
	ProjectID      types.String `tfsdk:"project_id"`
	OrganizationID types.String `tfsdk:"organization_id"`
}

// defaultHost is PostHog Cloud's US region.
const defaultHost = "https://us.posthog.com"

func (p *postHog) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "posthog"
}

func (p *postHog) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"host":            schema.StringAttribute{Optional: true},
		"api_key":         schema.StringAttribute{Optional: true, Sensitive: true},
		"project_id":      schema.StringAttribute{Optional: true},
		"organization_id": schema.StringAttribute{Optional: true},
	}}
}

// configured is the setting v when the configuration has it (even ""),
// else the environment variable env, else def.
func configured(v types.String, env, def string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	if e := os.Getenv(env); e != "" {
		return e
	}
	return def
}

func (p *postHog) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var s settings
	resp.Diagnostics.Append(req.Config.Get(ctx, &s)...)
	if resp.Diagnostics.HasError() {
		return
	}
	key := configured(s.APIKey, "POSTHOG_API_KEY", "")
	if key == "" {
		resp.Diagnostics.AddAttributeError(pathOf("api_key"), "No PostHog API key",
			"Set api_key in the provider block, or POSTHOG_API_KEY, to a personal API key.")
		return
	}
	resp.ResourceData = &provided{
		api:     newClient(configured(s.Host, "POSTHOG_HOST", defaultHost), key),
		project: configured(s.ProjectID, "POSTHOG_PROJECT_ID", ""),
	}
}

// provided is what the resource gets from the provider.
type provided struct {
	api *client
	// project is the provider's project_id, the one of functions that
	// name none.
	project string
}

func (p *postHog) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (p *postHog) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &hogFunction{} }}
}
