package localapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
)

// Collection names, as they appear in paths.
const (
	TransformationConfigs = "pipeline_transformation_configs"
	ImportAppConfigs      = "pipeline_import_apps_configs"
)

// Server is the local pipeline-config API: an http.Handler over a SQLite
// store. It is safe for concurrent use.
type Server struct {
	store *store
	// catalog is the plugin catalog; SetPlugin swaps in a new one.
	catalog     atomic.Pointer[catalog]
	catalogMu   sync.Mutex // serialises SetPlugin
	keys        map[string]*key
	projects    map[int64]bool
	log         *slog.Logger
	debugRoutes bool

	faults atomic.Pointer[faultState]
	// The per-key limits per minute (burst) and per hour (sustained).
	minuteLimiter atomic.Pointer[rateLimiter]
	hourLimiter   atomic.Pointer[rateLimiter]
	counters      *counters
	// mode is the service the server behaves as (service.pack): its
	// version and today's mode, read at once by each request.
	mode atomic.Int32
	// noPluginAccess is Options.NoPluginAccess.
	noPluginAccess atomic.Bool

	closeOnce sync.Once
	closeErr  error
}

// New opens the store and seeds the server from opts.
func New(opts Options) (*Server, error) {
	plugins := opts.Plugins
	if plugins == nil {
		plugins = DefaultPlugins()
	}
	cat, err := newCatalog(plugins)
	if err != nil {
		return nil, fmt.Errorf("localapi: %w", err)
	}
	projects := opts.Projects
	if projects == nil {
		projects = DefaultProjects()
	}
	keys := opts.Keys
	if keys == nil {
		keys = DefaultKeys()
	}
	svc, err := opts.service()
	if err != nil {
		return nil, fmt.Errorf("localapi: %w", err)
	}
	s := &Server{
		keys:        newKeys(keys, projects),
		projects:    map[int64]bool{},
		log:         opts.Logger,
		debugRoutes: opts.DebugRoutes,
		counters:    newCounters([]string{TransformationConfigs, ImportAppConfigs}),
	}
	s.catalog.Store(cat)
	s.mode.Store(svc.pack())
	s.noPluginAccess.Store(opts.NoPluginAccess)
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	for _, p := range projects {
		s.projects[p] = true
	}
	if s.store, err = openStore(opts.DBPath, opts.FirstConfigID); err != nil {
		return nil, fmt.Errorf("localapi: %w", err)
	}
	s.SetFaults(opts.Faults)
	s.SetRateLimit(opts.RateLimitPerMinute)
	s.SetHourlyRateLimit(opts.RateLimitPerHour)
	return s, nil
}

// Close closes the database. Requests after Close fail.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.store.close() })
	return s.closeErr
}

// request is what a handler needs about the request being served.
type request struct {
	w       http.ResponseWriter
	r       *http.Request
	ctx     context.Context
	route   route
	key     *key
	project int64 // 0 on the organization's routes
	// cat is the plugin catalog the request is served with, read once
	// when it arrived (an upgrade of a plugin does not change it midway).
	cat *catalog
	// svc is what the request is served as, read once when it arrived:
	// its version (svc.v).
	svc service
	// noAccess is the organization's plugin access below "config"
	// (Options.NoPluginAccess), read once.
	noAccess bool
}

// ServeHTTP serves the API. The order of checks follows the live service:
// faults (a proxy's), path (a route the version lacks is an unknown
// path), authentication, project, permissions, rate limit, method, then the
// operation itself.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.debugRoutes && isDebugPath(r.URL.Path) {
		s.serveDebug(w, r)
		return
	}
	cat, svc := s.catalog.Load(), s.service()
	rt := parseRoute(cat, r.URL.Path)
	op, allowed := rt.operation(r.Method)
	s.counters.request(op, rt.coll)
	if s.injectFault(w, r) {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			if err, isErr := v.(error); isErr && errors.Is(err, http.ErrAbortHandler) {
				panic(v)
			}
			s.log.Error("panic serving request", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			writeError(w, errServer())
		}
	}()
	if e := s.serve(w, r, rt, op, allowed, cat, svc); e != nil {
		writeError(w, e)
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request, rt route, op string, allowed bool, cat *catalog, svc service) *apiError {
	if !rt.servedIn(svc.v) {
		return errNoRoute(svc)
	}
	k, e := s.authenticate(r)
	if e != nil {
		return e
	}
	project, e := s.resolveTarget(k, rt)
	if e != nil {
		return e
	}
	if e := authorize(k, rt, project, op, allowed, svc.isToday()); e != nil {
		return e
	}
	noAccess := s.noPluginAccess.Load()
	if noAccess && rt.organization() {
		// PostHog's PluginsAccessLevelPermission, after the key's checks.
		return errPermission(DetailPluginAccessInsufficient)
	}
	// The live throttle runs before the method is looked at.
	if e := s.throttle(k); e != nil {
		return e
	}
	if !allowed {
		return errMethodNotAllowed(r.Method)
	}
	req := &request{w: w, r: r, ctx: r.Context(), route: rt, key: k, project: project, cat: cat, svc: svc, noAccess: noAccess}
	switch op {
	case opList:
		return s.list(req)
	case opCreate:
		return s.create(req)
	case opRetrieve:
		return s.retrieve(req)
	case opUpdate:
		return s.update(req)
	case opDelete:
		return s.delete(req)
	case opFrontend:
		return s.frontend(req)
	case opJob:
		return s.job(req)
	case opRearrange:
		return s.rearrange(req)
	case opMigrate:
		return s.migrate(req)
	case opActivity:
		return s.activity(req)
	case opPluginList:
		return s.listPlugins(req)
	case opPluginRetrieve:
		return s.retrievePlugin(req)
	case opHogList, opHogCreate, opHogRetrieve, opHogUpdate, opHogDelete:
		return s.serveHogFunction(req, op)
	case opTemplateList:
		return s.listTemplates(req)
	case opTemplateRetrieve:
		return s.retrieveTemplate(req)
	}
	return errRecordNotFound()
}

// internal logs an unexpected error and answers the live 500 envelope.
func (s *Server) internal(req *request, err error) *apiError {
	s.log.Error("request failed", "method", req.r.Method, "path", req.r.URL.Path, "err", err)
	return errServer()
}

// failed answers a write's error: its own *apiError when it refused, else
// the live 500 envelope.
func (s *Server) failed(req *request, err error) *apiError {
	var e *apiError
	if errors.As(err, &e) {
		return e
	}
	return s.internal(req, err)
}

// recordID reads the :id path segment.
func (req *request) recordID() (int64, bool) {
	id, err := strconv.ParseInt(req.route.id, 10, 64)
	return id, err == nil
}
