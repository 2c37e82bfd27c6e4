package acctest

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// ProviderServer is the provider as Terraform sees it over protocol 6, for
// tests of what this machine's Terraform cannot exercise (resource identity
// needs Terraform 1.12+): such tests call the RPCs directly.
type ProviderServer struct {
	tfprotov6.ProviderServer
	// Schemas is the provider's GetProviderSchema answer.
	Schemas *tfprotov6.GetProviderSchemaResponse
}

// NewProviderServer returns the provider, configured for the instance with
// key (ignored against a live instance, whose key is used) and the test
// project.
func NewProviderServer(t *testing.T, key string) *ProviderServer {
	t.Helper()
	inst := mustGet(t)
	if inst.local == nil {
		key = inst.key
	}
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(provider.New("acctest")())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	FailOnDiagnostics(t, "GetProviderSchema", schemas.Diagnostics)

	config := DynamicValue(t, schemas.Provider.ValueType(), map[string]tftypes.Value{
		"host":       tftypes.NewValue(tftypes.String, inst.host),
		"api_key":    tftypes.NewValue(tftypes.String, key),
		"project_id": tftypes.NewValue(tftypes.String, inst.project),
	})
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.12.0", Config: config})
	if err != nil {
		t.Fatal(err)
	}
	FailOnDiagnostics(t, "ConfigureProvider", resp.Diagnostics)
	return &ProviderServer{ProviderServer: srv, Schemas: schemas}
}

// ResourceType returns the Terraform type of a resource's state.
func (s *ProviderServer) ResourceType(t *testing.T, typeName string) tftypes.Type {
	t.Helper()
	schema, ok := s.Schemas.ResourceSchemas[typeName]
	if !ok {
		t.Fatalf("no resource type %s", typeName)
	}
	return schema.ValueType()
}

// DynamicValue encodes an object of type typ (which must be an object type)
// with the given attribute values and null for every other attribute.
func DynamicValue(t *testing.T, typ tftypes.Type, values map[string]tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	obj, ok := typ.(tftypes.Object)
	if !ok {
		t.Fatalf("%s is not an object type", typ)
	}
	attrs := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name, at := range obj.AttributeTypes {
		if v, ok := values[name]; ok {
			attrs[name] = v
		} else {
			attrs[name] = tftypes.NewValue(at, nil)
		}
	}
	for name := range values {
		if _, ok := obj.AttributeTypes[name]; !ok {
			t.Fatalf("%s has no attribute %s", typ, name)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// NullValue encodes a null value of type typ.
func NullValue(t *testing.T, typ tftypes.Type) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// Attributes decodes an object encoded as dv of type typ.
func Attributes(t *testing.T, dv *tfprotov6.DynamicValue, typ tftypes.Type) map[string]tftypes.Value {
	t.Helper()
	if dv == nil {
		t.Fatal("no value")
	}
	v, err := dv.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	attrs := map[string]tftypes.Value{}
	if v.IsNull() {
		return nil
	}
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	return attrs
}

// FailOnDiagnostics fails t when diags hold an error.
func FailOnDiagnostics(t *testing.T, call string, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("%s: %s: %s", call, d.Summary, d.Detail)
		}
	}
}
