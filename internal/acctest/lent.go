package acctest

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// A config the tests did not create is lent to them (ExistingConfig): on a
// live instance it is the user's own. No test may destroy it, whatever
// step fails; two guards keep it:
//
//   - its resource block carries prevent_destroy (Resource), so that
//     Terraform itself refuses any plan that destroys or replaces it,
//     terraform-plugin-testing's post-test destroy included;
//   - the provider the tests run (Test) refuses to plan or apply its
//     destroy or replacement, whatever the configuration says: also after
//     a step that drops the block, or one whose removed block never got
//     applied (terraform destroy ignores removed blocks' destroy = false),
//     where prevent_destroy is no longer in the configuration.
//
// Test ends with a step that lets the config go with a removed block, so
// that a test that passes leaves an empty state, and nothing to destroy.

// TestT is what resource.Test runs a TestCase with: a *testing.T, or the
// recorder of a test expected to fail (ExpectFailure).
type TestT interface {
	Cleanup(func())
	Error(args ...any)
	Errorf(format string, args ...any)
	Fail()
	FailNow()
	Failed() bool
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Helper()
	Log(args ...any)
	Logf(format string, args ...any)
	Name() string
	Parallel()
	Skip(args ...any)
	SkipNow()
	Skipf(format string, args ...any)
	Skipped() bool
}

// lentResource is the resource block of a lent config; Terraform refuses
// every plan that would destroy or replace it.
const lentResource = `
resource %q %q {
%s
  # Lent to the test: Terraform refuses to destroy or replace it.
  lifecycle {
    prevent_destroy = true
  }
}
`

// lentImport is the import block that takes a lent config over.
const lentImport = `
import {
  to = %s
  id = %q
}
`

// letGo is a removed block that lets a lent config go without destroying
// it.
const letGo = `
removed {
  from = %s
  lifecycle {
    destroy = false
  }
}
`

// Minimum versions of the tools that can let a config go: removed blocks
// with lifecycle { destroy = false }.
var (
	letGoTerraform = version.Must(version.NewVersion("1.7.0"))
	letGoOpenTofu  = version.Must(version.NewVersion("1.10.0"))
)

// Address is the address of the config resource named name, e.g.
// pipeline_transformation_config.existing.
func (ex *ExistingConfig) Address(name string) string {
	return ex.Kind.ConfigTypeName() + "." + name
}

// Resource renders the config resource named name holding the lent config,
// with args (its arguments, one a line) and prevent_destroy. Test lets go
// of every address Resource rendered in its last step.
func (ex *ExistingConfig) Resource(name, args string) string {
	if !slices.Contains(ex.held, name) {
		ex.held = append(ex.held, name)
	}
	return fmt.Sprintf(lentResource, ex.Kind.ConfigTypeName(), name, strings.TrimRight(args, "\n"))
}

// Import renders the import block that takes the lent config over at the
// config resource named name.
func (ex *ExistingConfig) Import(name string) string {
	return fmt.Sprintf(lentImport, ex.Address(name), ex.ImportID())
}

// Test runs tc, a test of the lent config, with the provider that refuses
// to destroy or replace it, and, when tc's configurations hold it
// (Resource), a last step that lets it go and checks that no resource of
// the state holds it any more and that the service still has it. A
// TestCase with providers of its own is refused: they would not be
// guarded.
func (ex *ExistingConfig) Test(t TestT, tc resource.TestCase) {
	t.Helper()
	if tc.ProtoV6ProviderFactories != nil || tc.ProtoV5ProviderFactories != nil || tc.ProviderFactories != nil {
		t.Fatalf("a test of the lent %s %d runs the provider ExistingConfig.Test gives it, which refuses to destroy the config; leave the TestCase's providers unset",
			ex.Kind.Noun, ex.ID)
	}
	tc.ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
		"pipeline": func() (tfprotov6.ProviderServer, error) {
			srv, err := providerserver.NewProtocol6WithError(provider.New("acctest")())()
			if err != nil {
				return nil, err
			}
			return &lentGuard{ProviderServer: srv, ex: ex}, nil
		},
	}
	if len(ex.held) > 0 {
		tc.Steps = append(slices.Clip(tc.Steps), ex.letGoStep())
	}
	resource.Test(t, tc)
}

// letGoStep lets go of every config resource Resource rendered, and
// checks that the state holds the lent config nowhere and that the
// service still has it, not deleted: a state that still held it would be
// destroyed after the test.
func (ex *ExistingConfig) letGoStep() resource.TestStep {
	var b strings.Builder
	b.WriteString(ex.ProviderBlock())
	for _, name := range ex.held {
		fmt.Fprintf(&b, letGo, ex.Address(name))
	}
	return resource.TestStep{
		Config: b.String(),
		Check: func(s *terraform.State) error {
			typ, id := ex.Kind.ConfigTypeName(), fmt.Sprint(ex.ID)
			for _, m := range s.Modules {
				for addr, rs := range m.Resources {
					if rs.Type == typ && rs.Primary != nil && rs.Primary.ID == id {
						return fmt.Errorf("%s still holds the lent %s %d at the end of the test: render its block with ExistingConfig.Resource, so that the last step lets it go",
							addr, ex.Kind.Noun, ex.ID)
					}
				}
			}
			return ex.checkKept()
		},
	}
}

// checkKept fails when the lent config is gone from the service or
// deleted.
func (ex *ExistingConfig) checkKept() error {
	rec, err := ex.API.Get(context.Background(), ex.Project, ex.Kind.Collection, ex.ID)
	switch {
	case err != nil:
		return fmt.Errorf("the lent %s %d: %w", ex.Kind.Noun, ex.ID, err)
	case rec.Deleted:
		return fmt.Errorf("the lent %s %d was deleted", ex.Kind.Noun, ex.ID)
	}
	return nil
}

// lentGuard is the provider, refusing to plan or apply the destroy or
// replacement of the lent config.
type lentGuard struct {
	tfprotov6.ProviderServer
	ex *ExistingConfig

	once      sync.Once
	stateType tftypes.Type
	schemaErr error
}

func (g *lentGuard) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	lent, err := g.holdsLent(ctx, req.TypeName, req.PriorState)
	if err != nil {
		return nil, err
	}
	if lent && g.isNull(req.ProposedNewState) {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.ProposedNewState, Diagnostics: g.refusal("destroy")}, nil
	}
	resp, err := g.ProviderServer.PlanResourceChange(ctx, req)
	if lent && err == nil && len(resp.RequiresReplace) > 0 {
		resp.Diagnostics = append(resp.Diagnostics, g.refusal("replace")...)
	}
	return resp, err
}

func (g *lentGuard) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	lent, err := g.holdsLent(ctx, req.TypeName, req.PriorState)
	if err != nil {
		return nil, err
	}
	if lent && g.isNull(req.PlannedState) {
		// The prior state back: Terraform keeps the object in state.
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PriorState, Private: req.PlannedPrivate, Diagnostics: g.refusal("destroy")}, nil
	}
	return g.ProviderServer.ApplyResourceChange(ctx, req)
}

func (g *lentGuard) refusal(what string) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError,
		Summary:  fmt.Sprintf("The acceptance tests refuse to %s the lent %s %d", what, g.ex.Kind.Noun, g.ex.ID),
		Detail: fmt.Sprintf("%s %d existed before the test (on a live instance, the one %s names); a test run never destroys a config it did not create. "+
			"A test lets it go with a removed block (ExistingConfig.Test does, after its last step).",
			g.ex.Kind.Noun, g.ex.ID, EnvExistingConfig(g.ex.Kind)),
	}}
}

// holdsLent reports whether state, of the resource type typeName, is the
// lent config's.
func (g *lentGuard) holdsLent(ctx context.Context, typeName string, state *tfprotov6.DynamicValue) (bool, error) {
	if typeName != g.ex.Kind.ConfigTypeName() || state == nil {
		return false, nil
	}
	g.once.Do(func() {
		resp, err := g.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		switch {
		case err != nil:
			g.schemaErr = err
		case resp.ResourceSchemas[typeName] == nil:
			g.schemaErr = fmt.Errorf("no schema of %s", typeName)
		default:
			g.stateType = resp.ResourceSchemas[typeName].ValueType()
		}
	})
	if g.schemaErr != nil {
		return false, g.schemaErr
	}
	v, err := state.Unmarshal(g.stateType)
	if err != nil || v.IsNull() {
		return false, err
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return false, err
	}
	if !attrs["id"].IsKnown() || attrs["id"].IsNull() {
		return false, nil
	}
	var id big.Float
	if err := attrs["id"].As(&id); err != nil {
		return false, err
	}
	n, acc := id.Int64()
	return acc == big.Exact && n == g.ex.ID, nil
}

// isNull reports whether v is a null object (a destroy); a value it cannot
// read is not.
func (g *lentGuard) isNull(v *tfprotov6.DynamicValue) bool {
	if v == nil {
		return true
	}
	val, err := v.Unmarshal(g.stateType)
	return err == nil && val.IsNull()
}
