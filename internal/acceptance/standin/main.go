// Command standin is a test-only stand-in for a generic REST provider that
// users managed plugin configs with before this provider: Mastercard/restapi
// (resource restapi_object) or magodo/restful (restful_resource), chosen at
// build time with -ldflags "-X main.peer=restapi" or "-X main.peer=restful".
//
// A state written with one of those providers needs that provider installed
// for terraform init, also once a moved block hands its resources to this
// provider. The stand-in has the peer's resource type with the attributes
// and schema version the peer writes (the types of the attributes a state
// leaves null are simplified), so that Terraform and OpenTofu load such a
// state as they would with the real provider. It never talks to a service:
// a read keeps the state, and any change is refused.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// peer is the provider this binary stands in for: "restapi" or "restful".
var peer = "restapi"

// peerSchema is a peer's resource as its real provider declares it.
type peerSchema struct {
	namespace, resourceSuffix string
	version                   int64
	strings, bools, dynamic   []string
	stringLists, stringMaps   []string
	identity                  bool
}

var peers = map[string]peerSchema{
	// Mastercard/restapi v3.0.0.
	"restapi": {
		namespace: "mastercard", resourceSuffix: "_object", version: 0,
		strings: []string{
			"id", "path", "data", "api_response", "create_response", "create_method", "create_path", "destroy_data",
			"destroy_method", "destroy_path", "id_attribute", "object_id", "query_string", "read_data", "read_method",
			"read_path", "update_data", "update_method", "update_path", "read_search",
		},
		bools:       []string{"debug", "ignore_all_server_changes", "ignore_server_additions"},
		stringLists: []string{"force_new", "ignore_changes_to"},
		stringMaps:  []string{"api_data"},
	},
	// magodo/restful v0.25.2: schema version 2, with an identity on
	// Terraform 1.12+.
	"restful": {
		namespace: "magodo", resourceSuffix: "_resource", version: 2,
		strings: []string{
			"id", "path", "read_path", "create_method", "create_selector", "delete_body_raw", "delete_method",
			"delete_path", "read_selector", "read_response_template", "update_method", "update_path",
			"check_existance", "create_header", "create_query", "delete_header", "delete_query", "force_new_attrs",
			"header", "merge_patch_disabled", "output_attrs", "poll_create", "poll_delete", "poll_update",
			"post_create_read", "precheck_create", "precheck_delete", "precheck_update", "query", "read_header",
			"read_query", "update_body_patches", "update_header", "update_query", "use_sensitive_output",
			"write_only_attrs",
		},
		dynamic:  []string{"body", "output", "sensitive_output", "ephemeral_body", "delete_body"},
		identity: true,
	},
}

func main() {
	p, ok := peers[peer]
	if !ok {
		log.Fatalf("unknown peer %q", peer)
	}
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &standin{peer: p} },
		providerserver.ServeOpts{Address: "registry.terraform.io/" + p.namespace + "/" + peer})
	if err != nil {
		log.Fatal(err)
	}
}

type standin struct{ peer peerSchema }

func (s *standin) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = peer
}

func (s *standin) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (s *standin) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}

func (s *standin) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (s *standin) Resources(context.Context) []func() resource.Resource {
	if s.peer.identity {
		return []func() resource.Resource{func() resource.Resource { return &identifiedResource{peerResource{peer: s.peer}} }}
	}
	return []func() resource.Resource{func() resource.Resource { return &peerResource{peer: s.peer} }}
}

type peerResource struct{ peer peerSchema }

// identifiedResource is a peer resource with an identity (restful's).
type identifiedResource struct{ peerResource }

var _ resource.ResourceWithIdentity = (*identifiedResource)(nil)

func (r *peerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + r.peer.resourceSuffix
}

func (r *peerResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{}
	for _, n := range r.peer.strings {
		attrs[n] = schema.StringAttribute{Optional: true, Computed: n == "id"}
	}
	for _, n := range r.peer.bools {
		attrs[n] = schema.BoolAttribute{Optional: true}
	}
	for _, n := range r.peer.dynamic {
		attrs[n] = schema.DynamicAttribute{Optional: true}
	}
	for _, n := range r.peer.stringLists {
		attrs[n] = schema.ListAttribute{Optional: true, ElementType: types.StringType}
	}
	for _, n := range r.peer.stringMaps {
		attrs[n] = schema.MapAttribute{Computed: true, ElementType: types.StringType}
	}
	resp.Schema = schema.Schema{Version: r.peer.version, Attributes: attrs}
}

func (r *identifiedResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{RequiredForImport: true},
	}}
}

func (r *peerResource) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	resp.Diagnostics.AddError("Stand-in", "This test stand-in of "+peer+" creates nothing.")
}

// Read keeps the state as it is.
func (r *peerResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *peerResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Stand-in", "This test stand-in of "+peer+" changes nothing.")
}

func (r *peerResource) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	resp.Diagnostics.AddError("Stand-in", "This test stand-in of "+peer+" deletes nothing.")
}
