// The one import of the framework: htm's single-file build of Preact with hooks, served from
// node_modules (no bundler, no import map, which a strict CSP would forbid inline).
export {
  html, render, useState, useEffect, useRef, useMemo, useCallback, useLayoutEffect,
} from './vendor/htm/preact/standalone.module.js';
