package serve

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// releaseRequestContexts wraps the framework's server so that what it keeps
// of a request's context after the request holds nothing of the request.
//
// terraform-plugin-framework (v1.19) keeps the cancel function of every
// request's context until StopProvider, which Terraform calls only on an
// interrupt, so a provider process retains each request's whole context:
// the gRPC stream's and the ~12 KiB of loggers terraform-plugin-go hangs on
// it. A plan of 1,000 records makes about 4,000 requests, so some 50 MiB
// stayed live, and the garbage collector scanned it again and again. The
// wrapper hands the framework a context that forwards to the request's own
// while the request runs and to an empty, cancelled one once it has returned.
//
// Only unary requests are wrapped, and of those the ones made per resource
// instance: a streamed answer (ListResource, InvokeAction) is produced after
// its method returns and keeps its context. Should the framework's server
// stop implementing one of the optional interfaces the wrapper forwards, it
// is served unwrapped rather than with a capability hidden.
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

// releasingServer is the framework's server with the per-instance requests
// wrapped.
type releasingServer struct {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

//nolint:staticcheck // See releaseRequestContexts.
var _ interface {
	tfprotov6.ProviderServerWithListResource
	tfprotov6.ProviderServerWithActions
	tfprotov6.ProviderServerWithStateStores
} = (*releasingServer)(nil)

// released serves f with a context that is released when f returns.
func released[Req, Resp any](ctx context.Context, req Req, f func(context.Context, Req) (Resp, error)) (Resp, error) {
	rc := newRequestContext(ctx)
	defer rc.release()
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
