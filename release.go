package main

import (
	"cmp"
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
)

// releaseRequestContexts wraps the framework's server so that what it keeps
// of a request's context afterwards holds nothing of the request: the
// framework (v1.19) keeps every request's cancel function, and with it
// terraform-plugin-go's loggers, until StopProvider (DESIGN.md, "Libraries
// or our own"). Only unary per-instance requests are wrapped: a streamed
// answer is produced after its method returns. A server without an
// optional interface the wrapper forwards is served unwrapped, which
// TestReleaseRequestContexts_keepsCapabilities refuses.
func releaseRequestContexts(s tfprotov6.ProviderServer) tfprotov6.ProviderServer {
	if full, ok := s.(server); ok {
		return &releasingServer{full}
	}
	return s
}

// server is a provider server with the optional interfaces by which
// Terraform finds list resources, actions and state stores.
type server interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

// releasingServer is the framework's server with the per-instance requests wrapped.
type releasingServer struct{ server }

// released serves f with a context that forgets ctx when f returns.
func released[Req, Resp any](ctx context.Context, req Req, f func(context.Context, Req) (Resp, error)) (Resp, error) {
	rc := &requestContext{}
	rc.current.Store(&ctx)
	defer rc.current.Store(&releasedContext)
	return f(rc, req)
}

func (s *releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return released(ctx, req, s.server.ValidateResourceConfig)
}

func (s *releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return released(ctx, req, s.server.UpgradeResourceState)
}

func (s *releasingServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return released(ctx, req, s.server.UpgradeResourceIdentity)
}

func (s *releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return released(ctx, req, s.server.ReadResource)
}

func (s *releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return released(ctx, req, s.server.PlanResourceChange)
}

func (s *releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return released(ctx, req, s.server.ApplyResourceChange)
}

func (s *releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return released(ctx, req, s.server.ImportResourceState)
}

func (s *releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return released(ctx, req, s.server.ValidateDataResourceConfig)
}

func (s *releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return released(ctx, req, s.server.ReadDataSource)
}

// The framework (v1.19) serves GenerateResourceConfig but does not yet
// advertise it, so Terraform writes the configuration of an imported
// resource (terraform plan -generate-config-out) from its state itself,
// every argument included: a config's order too. The server advertises it
// (Terraform 1.14+ asks then) and serves the framework's configuration
// without what a config leaves to the service (configresource.GeneratedConfig).

// GetProviderSchema advertises GenerateResourceConfig besides the framework's capabilities.
func (s *releasingServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := s.server.GetProviderSchema(ctx, req)
	if resp != nil {
		resp.ServerCapabilities = generatesConfig(resp.ServerCapabilities)
	}
	return resp, err
}

// GetMetadata advertises GenerateResourceConfig besides the framework's capabilities.
func (s *releasingServer) GetMetadata(ctx context.Context, req *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	resp, err := s.server.GetMetadata(ctx, req)
	if resp != nil {
		resp.ServerCapabilities = generatesConfig(resp.ServerCapabilities)
	}
	return resp, err
}

func generatesConfig(c *tfprotov6.ServerCapabilities) *tfprotov6.ServerCapabilities {
	out := *cmp.Or(c, &tfprotov6.ServerCapabilities{})
	out.GenerateResourceConfig = true
	return &out
}

// GenerateResourceConfig serves the framework's generated configuration,
// released like the other requests, with configresource.GeneratedConfig's
// changes.
func (s *releasingServer) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	resp, err := released(ctx, req, s.server.GenerateResourceConfig)
	if err != nil || resp == nil {
		return resp, err
	}
	if resp.Config, err = configresource.GeneratedConfig(ctx, req.TypeName, resp.Config); err != nil {
		resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{
			Severity: tfprotov6.DiagnosticSeverityError,
			Summary:  "Could not generate the configuration of " + req.TypeName,
			Detail:   err.Error() + "\n\nThis is a bug in the provider: please report it.",
		})
	}
	return resp, nil
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
