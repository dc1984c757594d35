// A Docusaurus 3 docs site that embeds <trainer-v2-explorer> from npm: the client module
// registers the element; the MDX pages write it with its fallback as children.
/** @type {import('@docusaurus/types').Config} */
export default {
  title: 'Trainer V2 Explorer in Docusaurus',
  url: 'http://127.0.0.1',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  // The banner Docusaurus shows for a wrong baseUrl is styled inline, which the site's strict
  // Content-Security-Policy refuses.
  baseUrlIssueBanner: false,
  markdown: { hooks: { onBrokenMarkdownLinks: 'throw' } },
  i18n: { defaultLocale: 'en', locales: ['en'] },
  clientModules: ['./src/trainer-v2-explorer.js'],
  presets: [
    [
      'classic',
      {
        docs: { routeBasePath: '/' },
        blog: false,
        theme: { customCss: './src/css/custom.css' },
      },
    ],
  ],
  themeConfig: {
    navbar: { title: 'Trainer V2 Explorer' },
    // Dark when the reader's system is; the element follows the site's html[data-theme].
    colorMode: { respectPrefersColorScheme: true },
  },
};
