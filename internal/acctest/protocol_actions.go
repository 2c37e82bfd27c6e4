package acctest

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Calls for actions and list resources (Terraform 1.14+), so that tests on
// an older Terraform cover them through the protocol as Terraform would
// drive them.

// actionServer is the provider's action RPCs.
func (s *ProviderServer) actionServer(t *testing.T) tfprotov6.ActionServer {
	t.Helper()
	a, ok := s.ProviderServer.(tfprotov6.ActionServer)
	if !ok {
		t.Fatal("the provider server has no action RPCs")
	}
	return a
}

// listServer is the provider's list resource RPCs.
func (s *ProviderServer) listServer(t *testing.T) tfprotov6.ListResourceServer {
	t.Helper()
	l, ok := s.ProviderServer.(tfprotov6.ListResourceServer)
	if !ok {
		t.Fatal("the provider server has no list resource RPCs")
	}
	return l
}

// ActionType returns the Terraform type of an action's configuration.
func (s *ProviderServer) ActionType(t *testing.T, typeName string) tftypes.Type {
	t.Helper()
	schema, ok := s.Schemas.ActionSchemas[typeName]
	if !ok || schema.Schema == nil {
		t.Fatalf("no action %s", typeName)
	}
	return schema.Schema.ValueType()
}

// ListConfigType returns the Terraform type of a list resource's
// configuration.
func (s *ProviderServer) ListConfigType(t *testing.T, typeName string) tftypes.Type {
	t.Helper()
	schema, ok := s.Schemas.ListResourceSchemas[typeName]
	if !ok {
		t.Fatalf("no list resource %s", typeName)
	}
	return schema.ValueType()
}

// Invocation is what an invoked action reported.
type Invocation struct {
	// Progress holds the progress messages, in order.
	Progress []string
	// Diagnostics are those of the completed event.
	Diagnostics []*tfprotov6.Diagnostic
	// Completed is whether a completed event came.
	Completed bool
}

// PlanAction validates and plans an action with the given configuration
// values (others null), as Terraform does before invoking it, and returns
// the diagnostics of both.
func (s *ProviderServer) PlanAction(t *testing.T, typeName string, config map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	cfg := DynamicValue(t, s.ActionType(t, typeName), config)
	v, err := s.actionServer(t).ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: typeName, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if HasError(v.Diagnostics) {
		return v.Diagnostics
	}
	p, err := s.actionServer(t).PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: typeName, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return append(v.Diagnostics, p.Diagnostics...)
}

// Invoke invokes an action with the given configuration values (others
// null) and collects its events.
func (s *ProviderServer) Invoke(t *testing.T, typeName string, config map[string]tftypes.Value) Invocation {
	t.Helper()
	stream, err := s.actionServer(t).InvokeAction(context.Background(), &tfprotov6.InvokeActionRequest{
		ActionType: typeName, Config: DynamicValue(t, s.ActionType(t, typeName), config),
	})
	if err != nil {
		t.Fatal(err)
	}
	var out Invocation
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			out.Progress = append(out.Progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			out.Completed = true
			out.Diagnostics = append(out.Diagnostics, e.Diagnostics...)
		}
	}
	return out
}

// List runs a list resource with the given configuration values (others
// null) and returns every result it streams.
func (s *ProviderServer) List(t *testing.T, typeName string, config map[string]tftypes.Value, includeResource bool, limit int64) []tfprotov6.ListResourceResult {
	t.Helper()
	stream, err := s.listServer(t).ListResource(context.Background(), &tfprotov6.ListResourceRequest{
		TypeName: typeName, Config: DynamicValue(t, s.ListConfigType(t, typeName), config),
		IncludeResource: includeResource, Limit: limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []tfprotov6.ListResourceResult
	for r := range stream.Results {
		out = append(out, r)
	}
	return out
}
