package configresource_test

import (
	"context"
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

// benchRecord creates one record of each kind on an isolated local API and
// returns, per kind, the provider and what Terraform would send about it in
// a plan without changes.
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
		config := map[string]tftypes.Value{
			"plugin": tftypes.NewValue(tftypes.Number, tc.Plugins[0]),
			"name":   tftypes.NewValue(tftypes.String, "bench"),
		}
		created := srv.Apply(b, tc.TypeName, nil, nil, config)
		acctest.FailOnDiagnostics(b, "ApplyResourceChange", created.Diagnostics)
		cases = append(cases, benchCase{
			name: tc.Kind.Name, typeName: tc.TypeName, srv: srv,
			state: created.NewState, identity: created.NewIdentity, private: created.Private,
			config: acctest.DynamicValue(b, srv.ResourceType(b, tc.TypeName), config),
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
