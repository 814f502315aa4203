import packageJson from '../../../../package.json';
import { isSupportedNode, MINIMUM_NODE, unsupportedNodeMessage } from './node-version';

describe('supported Node versions', () => {
  it.each([
    ['24.9.0', true],
    ['24.21.0', true],
    ['25.0.0', true],
    ['24.8.9', false],
    ['20.20.2', false],
    ['9.11.2', false],
  ])('%s supported: %s', (version, supported) => {
    expect(isSupportedNode(version)).toBe(supported);
  });

  it('agrees with package.json "engines"', () => {
    expect(packageJson.engines.node).toBe(`>=${MINIMUM_NODE.join('.')}`);
  });

  it('tells the operator which Node it needs and how to run the bundled one', () => {
    const message = unsupportedNodeMessage('20.20.2', '/usr/bin/node');
    expect(message).toContain('needs Node.js 24.9 or newer');
    expect(message).toContain('this is Node.js 20.20.2 (/usr/bin/node)');
    expect(message).toContain('node_modules/.bin/node .');
  });
});
