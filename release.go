package main

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// releaseRequestContexts wraps the framework's server so that what it keeps
// of a request's context afterwards holds nothing of the request: the
// framework (v1.19) keeps every request's cancel function, and with it
// terraform-plugin-go's loggers, until StopProvider (DESIGN.md, "Libraries
// or our own"). Only unary per-instance requests are wrapped: a streamed
// answer is produced after its method returns. A server without an
// optional interface the wrapper forwards is served unwrapped.
//
//nolint:staticcheck // The optional interfaces are deprecated only in favour of merging them into ProviderServer; until then Terraform finds capabilities through them.
func releaseRequestContexts(s tfprotov6.ProviderServer) tfprotov6.ProviderServer {
	list, okList := s.(tfprotov6.ProviderServerWithListResource)
	actions, okActions := s.(tfprotov6.ProviderServerWithActions)
	stores, okStores := s.(tfprotov6.ProviderServerWithStateStores)
	if !okList || !okActions || !okStores {
		return s
	}
	return &releasingServer{ProviderServer: s, ListResourceServer: list, ActionServer: actions, StateStoreServer: stores}
}

// releasingServer is the framework's server with the per-instance requests wrapped.
type releasingServer struct {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

// released serves f with a context that forgets ctx when f returns.
func released[Req, Resp any](ctx context.Context, req Req, f func(context.Context, Req) (Resp, error)) (Resp, error) {
	rc := &requestContext{}
	rc.current.Store(&ctx)
	defer rc.current.Store(&releasedContext)
	return f(rc, req)
}

func (s *releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return released(ctx, req, s.ProviderServer.ValidateResourceConfig)
}

func (s *releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return released(ctx, req, s.ProviderServer.UpgradeResourceState)
}

func (s *releasingServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return released(ctx, req, s.ProviderServer.UpgradeResourceIdentity)
}

func (s *releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return released(ctx, req, s.ProviderServer.ReadResource)
}

func (s *releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return released(ctx, req, s.ProviderServer.PlanResourceChange)
}

func (s *releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return released(ctx, req, s.ProviderServer.ApplyResourceChange)
}

func (s *releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return released(ctx, req, s.ProviderServer.ImportResourceState)
}

func (s *releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return released(ctx, req, s.ProviderServer.ValidateDataResourceConfig)
}

func (s *releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return released(ctx, req, s.ProviderServer.ReadDataSource)
}

// requestContext is the request's context until the request returns, then
// an empty, cancelled one that keeps none of the request's values alive.
type requestContext struct {
	current atomic.Pointer[context.Context]
}

var releasedContext = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

func (c *requestContext) ctx() context.Context { return *c.current.Load() }

// Deadline implements context.Context.
func (c *requestContext) Deadline() (time.Time, bool) { return c.ctx().Deadline() }

// Done implements context.Context: the request's own channel while it
// runs, so derived contexts join its cancellation without a goroutine each.
func (c *requestContext) Done() <-chan struct{} { return c.ctx().Done() }

// Err implements context.Context.
func (c *requestContext) Err() error { return c.ctx().Err() }

// Value implements context.Context.
func (c *requestContext) Value(key any) any { return c.ctx().Value(key) }
