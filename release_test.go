package main

import (
	"context"
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/provider"
)

// The wrapped server still offers every optional capability of the
// framework's: Terraform finds list resources, actions and state stores by
// type assertion.
//
//nolint:staticcheck // The optional interfaces are how Terraform finds the capabilities.
func TestReleaseRequestContexts_keepsCapabilities(t *testing.T) {
	s := releaseRequestContexts(providerserver.NewProtocol6(provider.New("test")())())
	if _, ok := s.(*releasingServer); !ok {
		t.Fatalf("the framework's server was served unwrapped (%T): it no longer implements an interface the wrapper forwards", s)
	}
	if _, ok := s.(tfprotov6.ProviderServerWithListResource); !ok {
		t.Error("list resources hidden")
	}
	if _, ok := s.(tfprotov6.ProviderServerWithActions); !ok {
		t.Error("actions hidden")
	}
	if _, ok := s.(tfprotov6.ProviderServerWithStateStores); !ok {
		t.Error("state stores hidden")
	}
}

// keeper is a downstream server that keeps the contexts it is handed, as
// the framework keeps a cancel function of each.
type keeper struct {
	server
	kept []context.Context
	// during is what the handler saw of the request's value.
	during []any
}

type ctxKey struct{}

func (k *keeper) handle(ctx context.Context) {
	// The framework keeps the cancel function until StopProvider, which
	// never comes here.
	derived, cancel := context.WithCancel(ctx) //nolint:gosec // deliberately not called: see above
	_ = cancel
	k.kept = append(k.kept, derived)
	k.during = append(k.during, derived.Value(ctxKey{}))
}

func (k *keeper) ReadResource(ctx context.Context, _ *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	k.handle(ctx)
	return &tfprotov6.ReadResourceResponse{}, nil
}

func (k *keeper) PlanResourceChange(ctx context.Context, _ *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	k.handle(ctx)
	return &tfprotov6.PlanResourceChangeResponse{}, nil
}

// A context the downstream server keeps after a request sees the request's
// values and cancellation while it runs, and nothing of it afterwards.
func TestReleaseRequestContexts_releasesAfterTheRequest(t *testing.T) {
	k := &keeper{}
	s := &releasingServer{server: k}
	for _, call := range []func(context.Context) error{
		func(ctx context.Context) error {
			_, err := s.ReadResource(ctx, &tfprotov6.ReadResourceRequest{})
			return err
		},
		func(ctx context.Context) error {
			_, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{})
			return err
		},
	} {
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "request value"))
		if err := call(ctx); err != nil {
			t.Fatal(err)
		}
		kept := k.kept[len(k.kept)-1]
		if got := k.during[len(k.during)-1]; got != "request value" {
			t.Errorf("during the request the handler saw %v, want the request's value", got)
		}
		if kept.Err() != nil {
			t.Errorf("a context derived during the request is done before the request is: %v", kept.Err())
		}
		cancel() // the request ends: gRPC cancels its context
		if !errors.Is(kept.Err(), context.Canceled) {
			t.Errorf("the derived context did not follow the request's cancellation: %v", kept.Err())
		}
		if got := kept.Value(ctxKey{}); got != nil {
			t.Errorf("after the request the kept context still holds its value %v", got)
		}
	}
}

// The server advertises GenerateResourceConfig, so that Terraform 1.14+
// asks it, and a config's generated configuration leaves order to the
// service while keeping the other arguments of its state.
func TestGenerateResourceConfig_configLeavesOrderOut(t *testing.T) {
	ctx := context.Background()
	s := releaseRequestContexts(providerserver.NewProtocol6(provider.New("test")())())
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if c := schemas.ServerCapabilities; c == nil || !c.GenerateResourceConfig || !c.PlanDestroy {
		t.Fatalf("capabilities %+v: want GenerateResourceConfig besides the framework's", c)
	}
	meta, err := s.GetMetadata(ctx, &tfprotov6.GetMetadataRequest{})
	if err != nil || meta.ServerCapabilities == nil || !meta.ServerCapabilities.GenerateResourceConfig {
		t.Fatalf("GetMetadata (%v) does not advertise GenerateResourceConfig: %+v", err, meta)
	}
	for _, k := range framework.Kinds() {
		typ := schemas.ResourceSchemas[k.ConfigTypeName()].ValueType()
		obj, ok := typ.(tftypes.Object)
		if !ok {
			t.Fatalf("%s: the schema's type is %v, want an object", k.ConfigTypeName(), typ)
		}
		attrs := map[string]tftypes.Value{}
		for name, at := range obj.AttributeTypes {
			attrs[name] = tftypes.NewValue(at, nil)
		}
		attrs["id"] = tftypes.NewValue(tftypes.Number, 42)
		attrs["plugin"] = tftypes.NewValue(tftypes.Number, 1)
		attrs["order"] = tftypes.NewValue(tftypes.Number, 3)
		attrs["project_id"] = tftypes.NewValue(tftypes.String, "1")
		state, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.GenerateResourceConfig(ctx, &tfprotov6.GenerateResourceConfigRequest{TypeName: k.ConfigTypeName(), State: &state})
		if err != nil || len(resp.Diagnostics) != 0 {
			t.Fatalf("%s: %v %+v", k.ConfigTypeName(), err, resp)
		}
		v, err := resp.Config.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]tftypes.Value
		if err := v.As(&got); err != nil {
			t.Fatal(err)
		}
		if !got["order"].IsNull() || !got["id"].IsNull() || !got["plugin"].Equal(attrs["plugin"]) ||
			!got["project_id"].Equal(attrs["project_id"]) {
			t.Errorf("%s: generated %v, want order and id left out, plugin and project_id kept", k.ConfigTypeName(), got)
		}
	}
}
