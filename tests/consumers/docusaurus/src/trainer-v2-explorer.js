// Registers <trainer-v2-explorer> in the browser. Docusaurus also loads client modules while it
// renders pages on the server, where the module registers nothing.
import 'trainer-v2-explorer/define.js';
