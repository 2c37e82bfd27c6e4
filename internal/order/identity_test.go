package order_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// TestOrderResource_identityProtocol covers the order resource's identity
// (its project) on any Terraform by calling the protocol 6 server as
// Terraform 1.12+ would: the identity schema, create, import by identity
// (with and without project_id) and by ID, and read each carry it.
func TestOrderResource_identityProtocol(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		ctx := context.Background()
		host, _ := acctest.IsolatedAPI(t, nil)
		api := acctest.ClientFor(t, host, acctest.KeyFull)
		a := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{Plugin: client.Some(tc.Plugins[0]), Order: client.Some(int64(0))})
		b := acctest.MustCreate(t, api, tc.Kind.Collection, client.RecordInput{Plugin: client.Some(tc.Plugins[1]), Order: client.Some(int64(0))})
		srv := acctest.NewProviderServerFor(t, host, acctest.KeyFull, "1")
		orderType := "pipeline_" + tc.Kind.Name + "_order"

		schemas, err := srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "GetResourceIdentitySchemas", schemas.Diagnostics)
		identitySchema, ok := schemas.IdentitySchemas[orderType]
		if !ok {
			t.Fatalf("no identity schema for %s", orderType)
		}
		if attrs := identitySchema.IdentityAttributes; len(attrs) != 1 || attrs[0].Name != "project_id" ||
			!attrs[0].Type.Is(tftypes.String) || !attrs[0].OptionalForImport {
			t.Fatalf("identity attributes %+v, want one optional-for-import string project_id", attrs)
		}
		identityType := identitySchema.ValueType()
		stateType := srv.ResourceType(t, orderType)
		wantIdentity := func(t *testing.T, call string, got *tfprotov6.ResourceIdentityData) {
			t.Helper()
			if got == nil {
				t.Fatalf("%s: no identity", call)
			}
			if v := acctest.Attributes(t, got.IdentityData, identityType)["project_id"]; !v.Equal(tftypes.NewValue(tftypes.String, "1")) {
				t.Errorf("%s: identity project_id %s, want \"1\"", call, v)
			}
		}
		identity := func(project any) *tfprotov6.ResourceIdentityData {
			return &tfprotov6.ResourceIdentityData{IdentityData: acctest.DynamicValue(t, identityType, map[string]tftypes.Value{
				"project_id": tftypes.NewValue(tftypes.String, project),
			})}
		}

		created := srv.Apply(t, orderType, nil, nil, map[string]tftypes.Value{
			"config_ids": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, []tftypes.Value{
				tftypes.NewValue(tftypes.Number, b.ID), tftypes.NewValue(tftypes.Number, a.ID),
			}),
		})
		acctest.FailOnDiagnostics(t, "ApplyResourceChange (create)", created.Diagnostics)
		wantIdentity(t, "create", created.NewIdentity)

		for name, req := range map[string]*tfprotov6.ImportResourceStateRequest{
			"by identity":                 {TypeName: orderType, Identity: identity("1")},
			"by identity without project": {TypeName: orderType, Identity: identity(nil)},
			"by ID":                       {TypeName: orderType, ID: "1"},
		} {
			imported, err := srv.ImportResourceState(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			acctest.FailOnDiagnostics(t, "ImportResourceState ("+name+")", imported.Diagnostics)
			if len(imported.ImportedResources) != 1 {
				t.Fatalf("import %s: %d resources, want 1", name, len(imported.ImportedResources))
			}
			ir := imported.ImportedResources[0]
			wantIdentity(t, "import "+name, ir.Identity)
			read, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
				TypeName: orderType, CurrentState: ir.State, CurrentIdentity: ir.Identity, Private: ir.Private,
			})
			if err != nil {
				t.Fatal(err)
			}
			acctest.FailOnDiagnostics(t, "ReadResource after import "+name, read.Diagnostics)
			wantIdentity(t, "read after import "+name, read.NewIdentity)
			want := tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, []tftypes.Value{
				tftypes.NewValue(tftypes.Number, b.ID), tftypes.NewValue(tftypes.Number, a.ID),
			})
			if got := acctest.Attributes(t, read.NewState, stateType)["config_ids"]; !got.Equal(want) {
				t.Errorf("read after import %s: config_ids %s, want %s", name, got, want)
			}
		}

		// A project that is not one is refused on project_id.
		bad, err := srv.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: orderType, Identity: identity("x")})
		if err != nil {
			t.Fatal(err)
		}
		p := tftypes.NewAttributePath().WithAttributeName("project_id")
		if len(bad.Diagnostics) == 0 || bad.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError || !bad.Diagnostics[0].Attribute.Equal(p) {
			t.Errorf("import by identity with project_id \"x\": diagnostics %v, want an error on project_id", bad.Diagnostics)
		}
	})
}
