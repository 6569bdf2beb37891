import { describe, expect, it } from 'vitest';
import { mentionedInterests } from '../../src/features/matches/mentions.js';

describe('mentionedInterests', () => {
  const shared = ['chess', 'jazz music', 'go', 'c++', 'sci-fi', 'café'];

  it('finds whole words, case-insensitively, in the order of the interests', () => {
    expect(mentionedInterests('Anyone for GO? Or Chess!', shared)).toEqual(['chess', 'go']);
  });

  it('does not match inside other words', () => {
    expect(mentionedInterests('chessboard, going, ago, algorithm', shared)).toEqual([]);
    expect(mentionedInterests('under_go go_', shared)).toEqual([]);
  });

  it('matches a multi-word interest as a phrase, across any white space', () => {
    expect(mentionedInterests('I love Jazz \n  Music so much', shared)).toEqual(['jazz music']);
    expect(mentionedInterests('jazz and music', shared)).toEqual([]);
    expect(mentionedInterests('jazz musical', shared)).toEqual([]);
  });

  it('handles punctuation inside interests and non-ASCII letters', () => {
    expect(mentionedInterests('I write C++ and read Sci-Fi at the CAFÉ.', shared)).toEqual(['c++', 'sci-fi', 'café']);
    expect(mentionedInterests('cafés', shared)).toEqual([]);
    // decomposed é (e + combining accent) is the same word once normalised
    expect(mentionedInterests('cafe\u0301', shared)).toEqual(['café']);
  });

  it('finds word forms, abbreviations and synonyms of the canonical names profiles store', () => {
    const canonical = ['machine learning', 'hiking', 'science fiction', 'javascript'];
    expect(mentionedInterests('Any ML on the next hike? Or some scifi', canonical)).toEqual(['machine learning', 'hiking', 'science fiction']);
    expect(mentionedInterests('We went trekking, and I write JS.', canonical)).toEqual(['hiking', 'javascript']);
    expect(mentionedInterests('java, art, chessboard', canonical)).toEqual([]);
  });

  it('treats the text as text: regex syntax and HTML mean nothing', () => {
    expect(mentionedInterests('<b>chess</b> .* (go)', shared)).toEqual(['chess', 'go']);
    expect(mentionedInterests('anything', ['.*'])).toEqual([]);
    expect(mentionedInterests('', shared)).toEqual([]);
    expect(mentionedInterests('chess', [])).toEqual([]);
  });
});
