package configresource_test

import (
	"context"
	"math/big"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// TestAccConfigResource_identity runs on Terraform 1.12+ only: identity in
// state, and import by identity through an import block.
func TestAccConfigResource_identity(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		addr := tc.TypeName + ".test"
		config := tc.Config("test", "  plugin  = "+strconv.FormatInt(tc.Plugins[0], 10)+"\n  enabled = true")
		resource.ParallelTest(t, resource.TestCase{
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
			PreCheck:                 func() { acctest.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			CheckDestroy:             acctest.CheckDestroyed(t, tc.TypeName, tc.Kind.Collection),
			Steps: []resource.TestStep{
				{
					Config: config,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
							"project_id": knownvalue.StringExact(acctest.ProjectID(t)),
							"id":         knownvalue.NotNull(),
						}),
						statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("id")),
						statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("project_id")),
					},
				},
				{
					Config:          config,
					ResourceName:    addr,
					ImportState:     true,
					ImportStateKind: resource.ImportBlockWithResourceIdentity,
				},
			},
		})
	})
}

// TestConfigResource_identityProtocol covers resource identity on any
// Terraform by calling the provider's protocol 6 server as Terraform 1.12+
// would: the identity schema, create, import by identity and by ID, read,
// and delete each carry the identity (project_id, id).
func TestConfigResource_identityProtocol(t *testing.T) {
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		ctx := context.Background()
		srv := acctest.NewProviderServer(t, acctest.KeyWrite)
		project := acctest.ProjectID(t)
		stateType := srv.ResourceType(t, tc.TypeName)

		// The identity schema.
		schemas, err := srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "GetResourceIdentitySchemas", schemas.Diagnostics)
		identitySchema, ok := schemas.IdentitySchemas[tc.TypeName]
		if !ok {
			t.Fatalf("no identity schema for %s", tc.TypeName)
		}
		attrs := map[string]*tfprotov6.ResourceIdentitySchemaAttribute{}
		for _, a := range identitySchema.IdentityAttributes {
			attrs[a.Name] = a
		}
		if a := attrs["project_id"]; a == nil || !a.Type.Is(tftypes.String) || !a.OptionalForImport {
			t.Errorf("project_id identity attribute: %+v, want an optional-for-import string", a)
		}
		if a := attrs["id"]; a == nil || !a.Type.Is(tftypes.Number) || !a.RequiredForImport {
			t.Errorf("id identity attribute: %+v, want a required-for-import number", a)
		}
		if len(attrs) != 2 {
			t.Errorf("identity attributes %v, want project_id and id", attrs)
		}
		identityType := identitySchema.ValueType()
		wantIdentity := func(t *testing.T, call string, got *tfprotov6.ResourceIdentityData, id int64) {
			t.Helper()
			if got == nil {
				t.Fatalf("%s: no identity", call)
			}
			v := acctest.Attributes(t, got.IdentityData, identityType)
			want := map[string]tftypes.Value{
				"project_id": tftypes.NewValue(tftypes.String, project),
				"id":         tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(id)),
			}
			for name, w := range want {
				if !v[name].Equal(w) {
					t.Errorf("%s: identity %s = %s, want %s", call, name, v[name], w)
				}
			}
		}
		idOf := func(t *testing.T, state *tfprotov6.DynamicValue) int64 {
			t.Helper()
			var f big.Float
			if err := acctest.Attributes(t, state, stateType)["id"].As(&f); err != nil {
				t.Fatal(err)
			}
			id, _ := f.Int64()
			return id
		}

		// Create, through plan and apply.
		created := srv.Apply(t, tc.TypeName, nil, nil, map[string]tftypes.Value{
			"plugin": tftypes.NewValue(tftypes.Number, tc.Plugins[0]),
		})
		acctest.FailOnDiagnostics(t, "ApplyResourceChange (create)", created.Diagnostics)
		id := idOf(t, created.NewState)
		wantIdentity(t, "create", created.NewIdentity, id)

		// Import by identity, then read.
		imported, err := srv.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{
			TypeName: tc.TypeName,
			Identity: &tfprotov6.ResourceIdentityData{IdentityData: acctest.DynamicValue(t, identityType, map[string]tftypes.Value{
				"project_id": tftypes.NewValue(tftypes.String, project),
				"id":         tftypes.NewValue(tftypes.Number, id),
			})},
		})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "ImportResourceState (identity)", imported.Diagnostics)
		if len(imported.ImportedResources) != 1 {
			t.Fatalf("imported %d resources, want 1", len(imported.ImportedResources))
		}
		ir := imported.ImportedResources[0]
		wantIdentity(t, "import by identity", ir.Identity, id)
		read, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
			TypeName: tc.TypeName, CurrentState: ir.State, CurrentIdentity: ir.Identity, Private: ir.Private,
		})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "ReadResource", read.Diagnostics)
		wantIdentity(t, "read", read.NewIdentity, id)
		readState := acctest.Attributes(t, read.NewState, stateType)
		if !readState["plugin"].Equal(tftypes.NewValue(tftypes.Number, tc.Plugins[0])) || readState["name"].IsNull() {
			t.Errorf("read state: plugin %s name %s", readState["plugin"], readState["name"])
		}

		// Import by identity without project_id uses the provider's.
		defaulted, err := srv.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{
			TypeName: tc.TypeName,
			Identity: &tfprotov6.ResourceIdentityData{IdentityData: acctest.DynamicValue(t, identityType, map[string]tftypes.Value{
				"id": tftypes.NewValue(tftypes.Number, id),
			})},
		})
		if err != nil {
			t.Fatal(err)
		}
		acctest.FailOnDiagnostics(t, "ImportResourceState (identity without project)", defaulted.Diagnostics)
		wantIdentity(t, "import by identity without project", defaulted.ImportedResources[0].Identity, id)

		// Import by ID, both forms, carries the identity too.
		for _, importID := range []string{project + "/" + strconv.FormatInt(id, 10), strconv.FormatInt(id, 10)} {
			byID, err := srv.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: tc.TypeName, ID: importID})
			if err != nil {
				t.Fatal(err)
			}
			acctest.FailOnDiagnostics(t, "ImportResourceState ("+importID+")", byID.Diagnostics)
			wantIdentity(t, "import by ID "+importID, byID.ImportedResources[0].Identity, id)
		}

		// A malformed import ID is an error that says the expected format.
		bad, err := srv.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: tc.TypeName, ID: "1/x"})
		if err != nil {
			t.Fatal(err)
		}
		if len(bad.Diagnostics) == 0 || !regexp.MustCompile(`<project_id>/<id>`).MatchString(bad.Diagnostics[0].Detail) {
			t.Errorf("malformed import ID: diagnostics %v", bad.Diagnostics)
		}

		// Delete: the config ends soft-deleted on the API.
		deleted := srv.Apply(t, tc.TypeName, read.NewState, read.NewIdentity, nil)
		acctest.FailOnDiagnostics(t, "ApplyResourceChange (delete)", deleted.Diagnostics)
		rec, err := acctest.API(t).Get(ctx, project, tc.Kind.Collection, id)
		if err != nil && !client.IsNotFound(err) {
			t.Fatal(err)
		}
		if err == nil && (!rec.Deleted || rec.Enabled) {
			t.Errorf("config %d after delete: deleted=%v enabled=%v", id, rec.Deleted, rec.Enabled)
		}
	})
}
