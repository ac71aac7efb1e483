# Adds placeholder lock entries for platform-specific optional dependencies that the local npm
# mirror does not serve (404), so that npm 11's `npm ci` accepts the lock. Each entry carries the
# exact version plus os/cpu, so npm skips it on other platforms. Run from the repo root.
import json, re
l = json.load(open('package-lock.json'))
p = l['packages']
added = []
for key, meta in list(p.items()):
    for dep, ver in (meta.get('optionalDependencies') or {}).items():
        if 'node_modules/' + dep in p or (key and key + '/node_modules/' + dep in p):
            continue
        m = re.search(r'(darwin|win32|linux|android|freebsd|openharmony)-([a-z0-9]+)', dep)
        if not re.fullmatch(r'\d+\.\d+\.\d+', ver) or not m:
            print('skipped (not an exact-version platform package):', dep, ver)
            continue
        p['node_modules/' + dep] = {'version': ver, 'optional': True, 'os': [m.group(1)], 'cpu': [m.group(2)]}
        added.append(dep)
l['packages'] = dict(sorted(p.items(), key=lambda kv: (kv[0] != '', kv[0])))
with open('package-lock.json', 'w') as f:
    json.dump(l, f, indent=2)
    f.write('\n')
print('added', len(added), added)
