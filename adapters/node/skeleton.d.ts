// skeleton.js is an adapter: requiring it serves the example gate on stdin/stdout. It exports nothing.
export {};
