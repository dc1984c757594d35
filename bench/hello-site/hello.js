import init, { mount } from './pkg/hello_yew.js';
await init();
mount(document.getElementById('hello'));
document.getElementById('hello').setAttribute('data-mounted', '');
