import type { TFunction } from 'i18next';

/**
 * A chart or strategy time frame ('1h', '1d') as the user's language writes it ("1 h", "1 j" in French);
 * a frame the catalogue does not know shows as it is.
 */
export function timeFrameLabel(t: TFunction, frame: string): string {
  return t(`common.timeFrames.${frame}`, { defaultValue: frame });
}
