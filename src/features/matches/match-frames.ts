import type { SuspensionRepository, UserRepository } from '../accounts/index.js';
import type { FrameBuilders } from '../events/index.js';
import { MESSAGE_KIND, MessageFrames } from './message-frames.js';
import type { MessageRepository } from './message-repository.js';
import { PROFILES_KIND, ProfileFrames } from './profile-frames.js';
import { recipientAppends } from './recipient-appends.js';

/** What the frames of the entries matches append are built from. */
export type MatchFrameSources = {
  messages: Pick<MessageRepository, 'findMany'>;
  users: Pick<UserRepository, 'findMany'>;
  suspensions: Pick<SuspensionRepository, 'suspendedAmong'>;
};

/** Registers how the entries matches append to accounts' streams by reference are read back: messages from their threads, profiles as they are now. */
export function registerMatchFrames(frames: FrameBuilders, sources: MatchFrameSources): FrameBuilders {
  return frames
    .register(MESSAGE_KIND, new MessageFrames(sources.messages))
    .register(PROFILES_KIND, new ProfileFrames(sources.users, sources.suspensions, recipientAppends));
}
