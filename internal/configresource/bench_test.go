package configresource_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// The benchmarks below are what one record costs the provider process in a
// plan without changes, call by call, as Terraform makes the calls (over
// protocol 6, without the gRPC transport). scripts/bench measures the
// whole of Terraform; these tell which call a change of the provider
// makes cheaper:
//
//	go test -run '^$' -bench Record -benchmem ./internal/configresource

// benchRecord creates one record of each kind on an isolated local API, set
// as make bench sets its configs (name, description, filters, settings),
// and returns, per kind, the provider and what Terraform would send about
// it in a plan without changes.
func benchRecord(b *testing.B) []benchCase {
	b.Helper()
	host, _ := acctest.IsolatedAPI(b, nil)
	srv := acctest.NewProviderServerWith(b, map[string]tftypes.Value{
		"host":       tftypes.NewValue(tftypes.String, host),
		"api_key":    tftypes.NewValue(tftypes.String, acctest.KeyWrite),
		"project_id": tftypes.NewValue(tftypes.String, "1"),
		// Not the client's rate limit: what a read costs the provider.
		"requests_per_minute": tftypes.NewValue(tftypes.Number, 0),
	})
	var cases []benchCase
	for _, tc := range acctest.KindCases(b) {
		settings := `{"locale":"en"}`
		if tc.Kind.Name != "transformation" {
			settings = `{"bucket":"bench"}`
		}
		config := map[string]tftypes.Value{
			"plugin":      tftypes.NewValue(tftypes.Number, tc.Plugins[0]),
			"order":       tftypes.NewValue(tftypes.Number, 7),
			"name":        tftypes.NewValue(tftypes.String, "bench"),
			"description": tftypes.NewValue(tftypes.String, "Benchmark config 7"),
			"filters":     tftypes.NewValue(tftypes.String, `{"events":[{"id":"$pageview","type":"events"}]}`),
			"config":      tftypes.NewValue(tftypes.String, settings),
		}
		created := srv.Apply(b, tc.TypeName, nil, nil, config)
		acctest.FailOnDiagnostics(b, "ApplyResourceChange", created.Diagnostics)
		typ := srv.ResourceType(b, tc.TypeName)
		cases = append(cases, benchCase{
			name: tc.Kind.Name, typeName: tc.TypeName, srv: srv,
			state: created.NewState, identity: created.NewIdentity, private: created.Private,
			config:    acctest.DynamicValue(b, typ, config),
			stateJSON: stateJSON(b, acctest.Attributes(b, created.NewState, typ)),
		})
	}
	return cases
}

type benchCase struct {
	name, typeName string
	srv            *acctest.ProviderServer
	state, config  *tfprotov6.DynamicValue
	identity       *tfprotov6.ResourceIdentityData
	private        []byte
	// stateJSON is the state as Terraform keeps it in the state file.
	stateJSON []byte
}

// stateJSON renders a state's attributes as the state file holds them:
// strings, numbers, booleans and nulls (timeouts is null in state).
func stateJSON(b *testing.B, attrs map[string]tftypes.Value) []byte {
	b.Helper()
	out := map[string]any{}
	for name, v := range attrs {
		var err error
		switch {
		case v.IsNull():
			out[name] = nil
		case v.Type().Is(tftypes.String):
			var s string
			err = v.As(&s)
			out[name] = s
		case v.Type().Is(tftypes.Number):
			var n big.Float
			err = v.As(&n)
			out[name] = json.Number(n.Text('f', -1))
		case v.Type().Is(tftypes.Bool):
			var t bool
			err = v.As(&t)
			out[name] = t
		default:
			b.Fatalf("%s: a %s in state", name, v.Type())
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

// BenchmarkRecordValidate is ValidateResourceConfig of a record's
// configuration, which Terraform sends for every record of every plan.
func BenchmarkRecordValidate(b *testing.B) {
	for _, c := range benchRecord(b) {
		b.Run(c.name, func(b *testing.B) {
			req := &tfprotov6.ValidateResourceConfigRequest{TypeName: c.typeName, Config: c.config}
			for b.Loop() {
				resp, err := c.srv.ValidateResourceConfig(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				acctest.FailOnDiagnostics(b, "ValidateResourceConfig", resp.Diagnostics)
			}
		})
	}
}

// BenchmarkRecordUpgrade is UpgradeResourceState of a record's state of
// the current version, which Terraform sends for every record of every
// plan before reading it.
func BenchmarkRecordUpgrade(b *testing.B) {
	for _, c := range benchRecord(b) {
		b.Run(c.name, func(b *testing.B) {
			version := c.srv.Schemas.ResourceSchemas[c.typeName].Version
			req := &tfprotov6.UpgradeResourceStateRequest{
				TypeName: c.typeName, Version: version, RawState: &tfprotov6.RawState{JSON: c.stateJSON},
			}
			for b.Loop() {
				resp, err := c.srv.UpgradeResourceState(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				acctest.FailOnDiagnostics(b, "UpgradeResourceState", resp.Diagnostics)
			}
		})
	}
}

// BenchmarkRecordRefresh is the refresh of a record the service has not
// changed: ReadResource, with one GET to the in-process local API (a
// record is served from a list page once per operation).
func BenchmarkRecordRefresh(b *testing.B) {
	for _, c := range benchRecord(b) {
		b.Run(c.name, func(b *testing.B) {
			req := &tfprotov6.ReadResourceRequest{
				TypeName: c.typeName, CurrentState: c.state, CurrentIdentity: c.identity, Private: c.private,
			}
			for b.Loop() {
				resp, err := c.srv.ReadResource(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				acctest.FailOnDiagnostics(b, "ReadResource", resp.Diagnostics)
				if resp.NewState == nil || resp.NewState.MsgPack == nil {
					b.Fatal("the record is gone from state")
				}
			}
		})
	}
}

// BenchmarkRecordNoChangePlan is PlanResourceChange of a record whose
// configuration matches its state: no request.
func BenchmarkRecordNoChangePlan(b *testing.B) {
	for _, c := range benchRecord(b) {
		b.Run(c.name, func(b *testing.B) {
			req := &tfprotov6.PlanResourceChangeRequest{
				TypeName: c.typeName, PriorState: c.state, ProposedNewState: c.state, Config: c.config,
				PriorIdentity: c.identity, PriorPrivate: c.private,
			}
			for b.Loop() {
				resp, err := c.srv.PlanResourceChange(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				acctest.FailOnDiagnostics(b, "PlanResourceChange", resp.Diagnostics)
				if len(resp.RequiresReplace) != 0 {
					b.Fatalf("a replacement was planned: %v", resp.RequiresReplace)
				}
			}
		})
	}
}
