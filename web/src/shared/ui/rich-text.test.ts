import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { RichText } from './rich-text.tsx';

const html = (text: string) =>
  renderToStaticMarkup(
    createElement(RichText, {
      text,
      components: { trial: createElement('a', { href: '/landing' }), b: createElement('b') },
    }),
  );

test('a named tag is drawn by its element, the text around it kept', () => {
  assert.equal(
    html('New to SmartConnect? <trial>Try it free for 7 days</trial>'),
    'New to SmartConnect? <a href="/landing">Try it free for 7 days</a>',
  );
  assert.equal(html('<b>One</b> and <trial>two</trial>.'), '<b>One</b> and <a href="/landing">two</a>.');
});

test('plain text, and an unknown tag keeps its content as text', () => {
  assert.equal(html('Nothing to mark'), 'Nothing to mark');
  assert.equal(html('An <other>unknown</other> tag'), 'An unknown tag');
});
