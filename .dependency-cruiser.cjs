/** Architectural boundaries of CONVENTIONS.md, checked by `npm test`. */
module.exports = {
  forbidden: [
    {
      name: 'web-not-server',
      comment:
        'The web app and the widget talk to the server over HTTP only; shared shapes live in contracts/.',
      severity: 'error',
      from: { path: '^(web|widget)/' },
      to: { path: '^server/' },
    },
    {
      name: 'contracts-stand-alone',
      comment: 'contracts/ is the source of truth and depends on nothing of ours.',
      severity: 'error',
      from: { path: '^contracts/' },
      to: { path: '^(server|web|widget)/' },
    },
    {
      name: 'no-foreign-queries',
      comment: "Modules reach each other through exported commands, never through each other's queries.",
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+)/' },
      to: {
        path: '^server/src/modules/([^/]+)/[a-z-]*queries\\.ts$',
        pathNot: '^server/src/modules/$1/',
      },
    },
    {
      name: 'infrastructure-not-domain',
      comment:
        'jobs/ and realtime/ are infrastructure: modules register their timers, stages and consumers with them (modules/setup.ts), never the other way round.',
      severity: 'error',
      from: { path: '^server/src/(jobs|realtime)/' },
      to: { path: '^server/src/modules/' },
    },
    {
      name: 'web-features-not-shell',
      comment:
        'A screen reaches the session, the API and the UI kit through shared/; the shell (app/) imports features, never the other way round.',
      severity: 'error',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/' },
    },
    {
      name: 'web-shared-stands-alone',
      comment: 'shared/ is what every screen builds on: it imports no feature and not the shell.',
      severity: 'error',
      from: { path: '^web/src/shared/' },
      to: { path: '^web/src/(app|features)/' },
    },
    {
      name: 'no-circular',
      severity: 'warn',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
