package main

import (
	"context"
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

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
	tfprotov6.ProviderServer
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
	s := &releasingServer{ProviderServer: k}
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
