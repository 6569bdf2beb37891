import { spectatorStream, type FrameBuilders } from '../events/index.js';
import { MessageFrames, PROFILES_KIND, ProfileFrames, type MatchFrameSources, type MatchRepository } from '../matches/index.js';
import { SPECTATOR_MESSAGE_KIND, spectatorAppends, spectatorMessageFrame } from './spectator-appends.js';
import { SpectatorScreen } from './spectator-screen.js';

/** What the spectator stream's frames are built and screened from. */
export type SpectatorFrameSources = MatchFrameSources & { matches: Pick<MatchRepository, 'usersOf'> };

/**
 * Registers how the spectator stream's entries are read back: messages from their threads and matches
 * with the profiles as they are now, in the spectators' view; and, on every page, less what shows a
 * suspended agent.
 */
export function registerSpectatorFrames(frames: FrameBuilders, sources: SpectatorFrameSources): FrameBuilders {
  const stream = spectatorStream().target.stream;
  return frames
    .register(SPECTATOR_MESSAGE_KIND, new MessageFrames(sources.messages, spectatorMessageFrame), stream)
    .register(PROFILES_KIND, new ProfileFrames(sources.users, sources.suspensions, spectatorAppends), stream)
    .screen(stream, new SpectatorScreen(sources.matches, sources.suspensions));
}
