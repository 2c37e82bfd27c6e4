// Command standin is a test-only stand-in for a generic REST provider that
// users managed plugin configs with before this provider: Mastercard/restapi
// (resource restapi_object) or magodo/restful (restful_resource), chosen at
// build time with -ldflags "-X main.peer=restapi" or "-X main.peer=restful".
//
// A state written with one of those providers needs that provider installed
// for terraform init, also once a moved block hands its resources to this
// provider. The stand-in has the peer's resource type with the attributes
// and schema version the peer writes (peers.json, which the tests' state
// fixtures follow too; the types of attributes a plugin config leaves null
// are simplified), so that Terraform and OpenTofu load such a state as they
// would with the real provider. It never talks to a service: a read keeps
// the state, and any change is refused.
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"log"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// peer is the provider this binary stands in for: a key of peers.json.
var peer = "restapi"

//go:embed peers.json
var peersJSON []byte

// peerSchema is a peer's resource as its real provider declares it.
type peerSchema struct {
	Source        string            `json:"source"`
	Resource      string            `json:"resource"`
	SchemaVersion int64             `json:"schema_version"`
	Identity      bool              `json:"identity"`
	Attributes    map[string]string `json:"attributes"`
}

func main() {
	var peers map[string]peerSchema
	if err := json.Unmarshal(peersJSON, &peers); err != nil {
		log.Fatal(err)
	}
	p, ok := peers[peer]
	if !ok {
		log.Fatalf("unknown peer %q", peer)
	}
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &standin{peer: p} },
		providerserver.ServeOpts{Address: "registry.terraform.io/" + p.Source})
	if err != nil {
		log.Fatal(err)
	}
}

type standin struct{ peer peerSchema }

func (s *standin) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = peer
}

func (s *standin) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (s *standin) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (s *standin) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (s *standin) Resources(context.Context) []func() resource.Resource {
	if s.peer.Identity {
		return []func() resource.Resource{func() resource.Resource { return &identifiedResource{peerResource{peer: s.peer}} }}
	}
	return []func() resource.Resource{func() resource.Resource { return &peerResource{peer: s.peer} }}
}

type peerResource struct{ peer peerSchema }

// identifiedResource is a peer resource with an identity (restful's, on
// Terraform 1.12+).
type identifiedResource struct{ peerResource }

var _ resource.ResourceWithIdentity = (*identifiedResource)(nil)

func (r *peerResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.peer.Resource
}

func (r *peerResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{}
	for name, typ := range r.peer.Attributes {
		switch typ {
		case "bool":
			attrs[name] = schema.BoolAttribute{Optional: true}
		case "dynamic":
			attrs[name] = schema.DynamicAttribute{Optional: true}
		case "list":
			attrs[name] = schema.ListAttribute{Optional: true, ElementType: types.StringType}
		case "map":
			attrs[name] = schema.MapAttribute{Optional: true, ElementType: types.StringType}
		default:
			attrs[name] = schema.StringAttribute{Optional: true, Computed: name == "id"}
		}
	}
	resp.Schema = schema.Schema{Version: r.peer.SchemaVersion, Attributes: attrs}
}

func (r *identifiedResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{RequiredForImport: true},
	}}
}

func (r *peerResource) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	resp.Diagnostics.AddError("Stand-in", r.refusal("creates"))
}

// Read keeps the state as it is.
func (r *peerResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *peerResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Stand-in", r.refusal("changes"))
}

func (r *peerResource) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	resp.Diagnostics.AddError("Stand-in", r.refusal("deletes"))
}

func (r *peerResource) refusal(verb string) string {
	return "This test stand-in of " + strings.ToLower(r.peer.Source) + " " + verb + " nothing."
}
