package acctest

import (
	"context"
	"sync"
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
func NewProviderServer(t testing.TB, key string) *ProviderServer {
	t.Helper()
	inst := mustGet(t)
	if inst.local == nil {
		key = inst.key
	}
	return NewProviderServerFor(t, inst.host, key, inst.project)
}

// NewProviderServerFor returns the provider, configured for host, key and
// project (e.g. an IsolatedAPI).
func NewProviderServerFor(t testing.TB, host, key, project string) *ProviderServer {
	t.Helper()
	return NewProviderServerWith(t, map[string]tftypes.Value{
		"host":       tftypes.NewValue(tftypes.String, host),
		"api_key":    tftypes.NewValue(tftypes.String, key),
		"project_id": tftypes.NewValue(tftypes.String, project),
	})
}

// NewProviderServerWith returns the provider configured with settings (the
// provider block's attributes; the others are null), built with opts (e.g.
// provider.WithCreateJournal, so that a test plays a working directory and
// workspace of its own, whose provider processes it ends with
// createonce.Release).
func NewProviderServerWith(t testing.TB, settings map[string]tftypes.Value, opts ...provider.Option) *ProviderServer {
	t.Helper()
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(provider.New("acctest", opts...)())()
	if err != nil {
		t.Fatal(err)
	}
	schemas := providerSchemas(t, srv)

	config := DynamicValue(t, schemas.Provider.ValueType(), settings)
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.12.0", Config: config})
	if err != nil {
		t.Fatal(err)
	}
	FailOnDiagnostics(t, "ConfigureProvider", resp.Diagnostics)
	return &ProviderServer{ProviderServer: srv, Schemas: schemas}
}

var (
	schemasOnce sync.Once
	schemas     *tfprotov6.GetProviderSchemaResponse
	schemasErr  error
)

// providerSchemas returns the provider's schemas, asked of the first
// server only: they are the same for every one (the options change no
// schema), and the framework's servers say GetProviderSchemaOptional, so
// Terraform caches them too rather than asking each process. Generated
// scenarios start a server per walk.
func providerSchemas(t testing.TB, srv tfprotov6.ProviderServer) *tfprotov6.GetProviderSchemaResponse {
	t.Helper()
	schemasOnce.Do(func() {
		schemas, schemasErr = srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	})
	if schemasErr != nil {
		t.Fatal(schemasErr)
	}
	FailOnDiagnostics(t, "GetProviderSchema", schemas.Diagnostics)
	return schemas
}

// ResourceType returns the Terraform type of a resource's state.
func (s *ProviderServer) ResourceType(t testing.TB, typeName string) tftypes.Type {
	t.Helper()
	schema, ok := s.Schemas.ResourceSchemas[typeName]
	if !ok {
		t.Fatalf("no resource type %s", typeName)
	}
	return schema.ValueType()
}

// IdentityType returns the Terraform type of a resource's identity.
func (s *ProviderServer) IdentityType(t testing.TB, typeName string) tftypes.Type {
	t.Helper()
	schemas, err := s.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schema, ok := schemas.IdentitySchemas[typeName]
	if !ok {
		t.Fatalf("no identity schema for %s", typeName)
	}
	return schema.ValueType()
}

// DynamicValue encodes an object of type typ (which must be an object type)
// with the given attribute values and null for every other attribute.
func DynamicValue(t testing.TB, typ tftypes.Type, values map[string]tftypes.Value) *tfprotov6.DynamicValue {
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
func NullValue(t testing.TB, typ tftypes.Type) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// Attributes decodes an object encoded as dv of type typ.
func Attributes(t testing.TB, dv *tfprotov6.DynamicValue, typ tftypes.Type) map[string]tftypes.Value {
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

// StringOf reads a string attribute value, "" when it is null.
func StringOf(t testing.TB, v tftypes.Value) string {
	t.Helper()
	var s string
	if v.IsNull() {
		return ""
	}
	if err := v.As(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// FailOnDiagnostics fails t when diags hold an error.
func FailOnDiagnostics(t testing.TB, call string, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("%s: %s: %s", call, d.Summary, d.Detail)
		}
	}
}

// Apply plans and applies a change of a resource from prior (nil: create)
// to the configuration config (nil: destroy), as Terraform does: the
// proposed new state is the prior state overlaid with the configured
// values. It fails t on a planning error and returns the apply's answer,
// whose diagnostics are the caller's to judge.
func (s *ProviderServer) Apply(t testing.TB, typeName string, prior *tfprotov6.DynamicValue, priorIdentity *tfprotov6.ResourceIdentityData, config map[string]tftypes.Value) *tfprotov6.ApplyResourceChangeResponse {
	t.Helper()
	ctx := context.Background()
	typ := s.ResourceType(t, typeName)
	if prior == nil {
		prior = NullValue(t, typ)
	}
	if config == nil {
		resp, err := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
			TypeName: typeName, PriorState: prior, PlannedState: NullValue(t, typ), Config: NullValue(t, typ),
			PlannedIdentity: priorIdentity,
		})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	plan := s.Plan(t, typeName, prior, nil, priorIdentity, config)
	FailOnDiagnostics(t, "PlanResourceChange", plan.Diagnostics)
	resp, err := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: typeName, PriorState: prior, PlannedState: plan.PlannedState, Config: DynamicValue(t, typ, config),
		PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// Plan plans a change of a resource from prior (its private state
// priorPrivate and identity priorIdentity, each may be nil) to the
// configuration config, as Terraform does: the proposed new state is the
// prior state overlaid with the configured values. The answer's
// diagnostics are the caller's to judge.
func (s *ProviderServer) Plan(t testing.TB, typeName string, prior *tfprotov6.DynamicValue, priorPrivate []byte,
	priorIdentity *tfprotov6.ResourceIdentityData, config map[string]tftypes.Value,
) *tfprotov6.PlanResourceChangeResponse {
	t.Helper()
	typ := s.ResourceType(t, typeName)
	proposed := map[string]tftypes.Value{}
	for name, v := range Attributes(t, prior, typ) {
		proposed[name] = v
	}
	for name, v := range config {
		proposed[name] = v
	}
	plan, err := s.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: prior, PriorPrivate: priorPrivate, PriorIdentity: priorIdentity,
		ProposedNewState: DynamicValue(t, typ, proposed), Config: DynamicValue(t, typ, config),
	})
	if err != nil {
		t.Fatal(err)
	}
	return plan
}
