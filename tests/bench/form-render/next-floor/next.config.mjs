// @ts-check

/**
 * The bare Next app of the form render benchmark (tests/bench/form-render.ts): the repository's own next, react
 * and react-dom (resolved from the root node_modules), none of the product's options, so what it loads and how fast
 * it becomes interactive is the framework's floor.
 * @type {import('next').NextConfig}
 */
const config = {
  reactStrictMode: true,
  poweredByHeader: false,
};

export default config;
