// Command nullprovider is the benchmark's plugin floor: the smallest
// terraform-plugin-framework provider, served by providerserver.Serve, whose
// one resource, benchnull_thing, keeps an input, gets an id and talks to
// nothing. terraform_data is Terraform with no
// plugin at all; this is what any framework plugin costs Terraform on top of
// that (starting processes, four gRPC calls per instance, the framework's
// schema work), so that the benchmark can tell which part of the pipeline
// provider's time is its own.
package main

import (
	"context"
	"log"
	"strconv"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &nullProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/pipelinecfg/benchnull"})
	if err != nil {
		log.Fatal(err)
	}
}

type nullProvider struct{}

func (*nullProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "benchnull"
}

func (*nullProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (*nullProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (*nullProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &thing{} }}
}

func (*nullProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// thing is benchnull_thing.
type thing struct{}

type thingModel struct {
	ID    types.String `tfsdk:"id"`
	Input types.String `tfsdk:"input"`
}

// lastID numbers the things of one process.
var lastID atomic.Int64

func (*thing) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (*thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"input": schema.StringAttribute{Optional: true},
	}}
}

func (*thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = types.StringValue(strconv.FormatInt(lastID.Add(1), 10))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (*thing) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (*thing) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (*thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
