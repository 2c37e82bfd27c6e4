package localapi

import (
	"encoding/json"
	"fmt"
	"slices"
)

// catalog indexes the plugins and precomputes what every request needs. It
// is never changed: an upgrade of a plugin (Server.SetPlugin) makes a new
// one, and each request uses the one it began with.
type catalog struct {
	plugins []Plugin // in the order given
	byID    map[int64]*catalogEntry
	ids     []int64 // sorted
	// collections are the two collections by name.
	collections map[string]*collection
}

type catalogEntry struct {
	Plugin
	info    json.RawMessage
	listed  json.RawMessage
	secrets []string
}

// collection is one of the two record collections: the same records,
// filtered by the capability of their plugin.
type collection struct {
	name    string
	plugins map[int64]bool
	ids     []int64 // sorted
}

func (c *collection) shows(rec *record) bool { return c.plugins[rec.Plugin] }

// collectionKinds decides which plugins each collection shows, as the live
// service's querysets do.
var collectionKinds = map[string]func(*Plugin) bool{
	TransformationConfigs: (*Plugin).isTransformation,
	ImportAppConfigs:      (*Plugin).isImportApp,
}

func newCatalog(plugins []Plugin) (*catalog, error) {
	if err := checkPlugins(plugins); err != nil {
		return nil, err
	}
	c := &catalog{
		plugins: slices.Clone(plugins),
		byID:    make(map[int64]*catalogEntry, len(plugins)),
	}
	for _, p := range plugins {
		e := &catalogEntry{Plugin: p, secrets: p.ConfigSchema.secretKeys()}
		e.info, e.listed = e.pluginInfo(), e.listingEntry()
		c.byID[p.ID] = e
		c.ids = append(c.ids, p.ID)
	}
	slices.Sort(c.ids)
	c.collections = c.collectionsOf(collectionKinds)
	return c, nil
}

// collectionsOf builds the collections that kinds choose plugins for.
func (c *catalog) collectionsOf(kinds map[string]func(*Plugin) bool) map[string]*collection {
	out := make(map[string]*collection, len(kinds))
	for name, keep := range kinds {
		coll := &collection{name: name, plugins: map[int64]bool{}, ids: []int64{}}
		for id, e := range c.byID {
			if keep(&e.Plugin) {
				coll.plugins[id] = true
				coll.ids = append(coll.ids, id)
			}
		}
		slices.Sort(coll.ids)
		out[name] = coll
	}
	return out
}

func (c *catalog) get(id int64) *catalogEntry { return c.byID[id] }

// with returns a catalog in which p replaces the plugin of its ID, or is
// added after the others.
func (c *catalog) with(p Plugin) (*catalog, error) {
	plugins := slices.Clone(c.plugins)
	i := slices.IndexFunc(plugins, func(q Plugin) bool { return q.ID == p.ID })
	if i >= 0 {
		plugins[i] = p
	} else {
		plugins = append(plugins, p)
	}
	return newCatalog(plugins)
}

// SetPlugin adds p to the plugin catalog, or replaces the plugin with its
// ID, as an upgrade of a plugin on the service does: it may rename or
// re-describe it (to text, "" or null), change its config_schema (its form
// too), its jobs or its capabilities. Configs keep their plugin; answers
// show the new name, description and plugin_info, mask the new secret keys,
// and the collections show the configs by the new capabilities. Requests
// under way finish with the catalog they began with. Safe for concurrent
// use. The catalog is not stored: a restart goes back to Options.Plugins.
func (s *Server) SetPlugin(p Plugin) error {
	s.catalogMu.Lock()
	defer s.catalogMu.Unlock()
	next, err := s.catalog.Load().with(p)
	if err != nil {
		return fmt.Errorf("localapi: %w", err)
	}
	s.catalog.Store(next)
	return nil
}

// Plugins returns the plugin catalog, in the order it was given (plugins
// SetPlugin added last).
func (s *Server) Plugins() []Plugin { return slices.Clone(s.catalog.Load().plugins) }
